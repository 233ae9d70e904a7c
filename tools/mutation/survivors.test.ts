import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../harness/reference.js";
import { type MutationReport, type Survivor, triageProblems } from "./tally.js";

/** survivors.json against the committed results: every entry a live mutant's, once, with one kind (D-360). */
describe("survivors.json", () => {
  const read = <T>(path: string) => JSON.parse(readFileSync(join(repoRoot, path), "utf8")) as T;
  const report = read<MutationReport>("tools/mutation/stryker-incremental.json");
  const { survivors } = read<{ survivors: Survivor[] }>("tools/mutation/survivors.json");

  it("has no stale entry, no repeated key and no key of two kinds", () => {
    expect(triageProblems(report, survivors)).toEqual([]);
  });

  it("gives every entry its end, a replacement and a reason", () => {
    expect(
      survivors.filter(
        (entry) =>
          entry.endLine === undefined ||
          entry.endColumn === undefined ||
          entry.replacement === undefined ||
          entry.reason.trim() === "",
      ),
    ).toEqual([]);
  });
});
