/** Redocly's verdicts are kept by the hash of what decides them, and a kept verdict is read instead of running the CLI (D-480). */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { cachePath, redoclyDiff } from "./redocly-diff.js";

describe("cachePath", () => {
  it.each([
    {
      name: "the same pair",
      given: [
        ["a", "b"],
        ["a", "b"],
      ],
      wantSame: true,
    },
    {
      name: "another revision",
      given: [
        ["a", "b"],
        ["a", "c"],
      ],
      wantSame: false,
    },
    {
      name: "the pair swapped",
      given: [
        ["a", "b"],
        ["b", "a"],
      ],
      wantSame: false,
    },
  ])("$name", ({ given, wantSame }) => {
    const [first, second] = given.map(([before, after]) => cachePath(before!, after!));
    expect(first === second).toBe(wantSame);
  });
});

describe("redoclyDiff", () => {
  it("answers a pair judged before from the cache", async () => {
    // Texts no document has: only the kept verdict can answer them (the CLI would fail on them).
    const [before, after] = [`not a document ${process.pid} ${Date.now()}`, "nor this"];
    const path = cachePath(before, after);
    const kept = { bump: "minor", changes: [{ pointer: "#/x", impact: "minor", rules: ["r"], message: "m" }] };
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(kept));
    try {
      expect(await redoclyDiff(before, after)).toEqual(kept);
    } finally {
      rmSync(path, { force: true });
    }
  });
});
