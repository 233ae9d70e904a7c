/** Tests of the property axes: cell states from the verdicts' cell notes, and the empty cells. */
import { describe, expect, it } from "vitest";
import type { Verdict } from "../runner/verdict.js";
import { aVerdict } from "../testing/verdicts.js";
import { axes, cellNote, computeAxes, emptyCells } from "./axes.js";

const verdict = (id: string, status: Verdict["status"], notes: string[]): Verdict =>
  aVerdict({ id, statement: id, specRef: "interface-spec", area: "properties", status, notes });

const cellOf = (verdicts: Verdict[], axis: keyof typeof axes, row: string, column: string) => {
  const found = computeAxes(verdicts).find((a) => a.name === axes[axis].name)!;
  return found.cells[found.rows.indexOf(row)]![found.columns.indexOf(column)];
};

describe("computeAxes", () => {
  it.each([
    { given: [], want: "unreached" },
    { given: [verdict("PROP-001", "pass", [cellNote("methods", "HEAD", "401")])], want: "passed" },
    { given: [verdict("PROP-001", "fail", [cellNote("methods", "HEAD", "401")])], want: "failed" },
    {
      given: [
        verdict("PROP-001", "pass", [cellNote("methods", "HEAD", "401")]),
        verdict("PROP-003", "fail", [cellNote("methods", "HEAD", "401")]),
      ],
      want: "failed",
    },
    { given: [verdict("PROP-001", "skip", [cellNote("methods", "HEAD", "401")])], want: "unreached" },
    { given: [verdict("PROP-001", "pass", ["200 generated inputs, seed 1"])], want: "unreached" },
  ])("HEAD × 401 is $want", ({ given, want }) => {
    expect(cellOf(given, "methods", "HEAD", "401")).toBe(want);
  });

  it("ignores a note naming no declared cell", () => {
    const v = verdict("PROP-007", "pass", [cellNote("text", "klingon", "provider.name")]);
    expect(emptyCells(computeAxes([v]))).toHaveLength(emptyCells(computeAxes([])).length);
  });

  it("lists every declared cell as empty when nothing ran, and one fewer once a cell is judged", () => {
    const all = Object.values(axes).reduce((n, a) => n + a.rows.length * a.columns.length, 0);
    expect(emptyCells(computeAxes([]))).toHaveLength(all);
    const v = verdict("PROP-007", "pass", [cellNote("text", "cjk", "provider.name")]);
    expect(emptyCells(computeAxes([v]))).toHaveLength(all - 1);
    expect(emptyCells(computeAxes([v]))).not.toContain("cjk × provider.name");
  });
});
