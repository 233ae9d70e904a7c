/** The comparison of verdicts between runs: the same when every check has one verdict, each difference named otherwise. */
import { describe, expect, it } from "vitest";
import { compareVerdicts, type RunVerdicts } from "./compare.js";

const run = (label: string, statuses: Record<string, string>): RunVerdicts => ({
  label,
  seconds: 1,
  verdicts: Object.entries(statuses).map(([id, status]) => ({ id, level: "MUST", status })),
});

describe("compareVerdicts", () => {
  it.each([
    { runs: [run("a", { X: "pass", Y: "fail" }), run("b", { Y: "fail", X: "pass" })], same: true, names: [] },
    { runs: [run("a", { X: "pass" }), run("b", { X: "fail" })], same: false, names: ["X: pass, fail"] },
    { runs: [run("a", { X: "pass", Y: "skip" }), run("b", { X: "pass" })], same: false, names: ["Y: skip, not run"] },
  ])("same=$same $names", ({ runs, same, names }) => {
    const report = compareVerdicts(runs);
    expect(report.same).toBe(same);
    for (const name of names) expect(report.text).toContain(name);
  });
});
