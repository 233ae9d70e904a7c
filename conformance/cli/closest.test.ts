/** Tests of the "did you mean" helper: the nearest known word, or none when nothing is close. */
import { describe, expect, it } from "vitest";
import { closest, didYouMean } from "./closest.js";

const flags = ["--base-url", "--api-key", "--integration-id", "--managed-integration-id", "--other-tenant-id"];

describe("closest", () => {
  const cases: { given: string; candidates: string[]; want: string | undefined }[] = [
    { given: "--base-ur", candidates: flags, want: "--base-url" },
    { given: "--apikey", candidates: flags, want: "--api-key" },
    { given: "--integraton-id", candidates: flags, want: "--integration-id" },
    { given: "--other-tenant", candidates: flags, want: "--other-tenant-id" },
    { given: "--verbose-mode-please", candidates: flags, want: undefined },
    { given: "DEP-LSIT", candidates: ["DEP-LIST", "DEP-CREATE", "AUTH"], want: "DEP-LIST" },
    { given: "dep-list-04", candidates: ["DEP-LIST-004", "DEP-LIST-040"], want: "DEP-LIST-004" },
    { given: "x", candidates: [], want: undefined },
  ];
  for (const c of cases)
    it(`${c.given} -> ${String(c.want)}`, () => expect(closest(c.given, c.candidates)).toBe(c.want));
});

describe("didYouMean", () => {
  const cases: { given: string; want: string }[] = [
    { given: "--base-ur", want: " (did you mean --base-url?)" },
    { given: "--zzzzzzzzzzzz", want: "" },
  ];
  for (const c of cases) it(`${c.given} -> '${c.want}'`, () => expect(didYouMean(c.given, flags)).toBe(c.want));
});
