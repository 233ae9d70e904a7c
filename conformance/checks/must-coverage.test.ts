/** Every MUST decision names the MUST checks that cover it (conformance/must-coverage.json); the interface spec's statements are traced by tools/normative (D-510). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allChecks } from "./index.js";

interface Entry {
  statement: string;
  checks: string[];
}
interface Coverage {
  decisions: (Entry & { id: string })[];
}

const read = <T>(path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as T;
const coverage = read<Coverage>("../must-coverage.json");
const decisions = readFileSync(new URL("../../spec/decisions.md", import.meta.url), "utf8");

/** The decision rows whose level column names MUST: `| D-nn | gap | decision | level | reason |`. */
function mustDecisionIds(markdown: string): string[] {
  return (
    markdown
      .split("\n")
      // an escaped pipe (`string \| null`) is text inside a cell, not a cell border
      .map((line) =>
        line
          .replace(/\\\|/g, "/")
          .split("|")
          .map((cell) => cell.trim()),
      )
      .filter((cells) => /^D-\d+$/.test(cells[1] ?? "") && (cells[4] ?? "").includes("MUST"))
      .map((cells) => cells[1]!)
  );
}

const mustChecks = new Set(allChecks.filter((c) => c.level === "MUST").map((c) => c.id));

describe("MUST coverage", () => {
  it("reads the MUST rows of a decisions table", () => {
    const given = [
      "| Id | Gap | Decision | Level | Reason |",
      "| D-01 | a | b | SHOULD | r |",
      "| D-02 | a | b | MUST (x), SHOULD (y) | r |",
      "| D-03 | a | `T \\| null` | MUST | r |",
    ].join("\n");
    expect(mustDecisionIds(given)).toEqual(["D-02", "D-03"]);
  });

  it("lists every MUST decision row of spec/decisions.md, and no other", () => {
    const want = mustDecisionIds(decisions);
    expect(want.length).toBeGreaterThan(10);
    expect(coverage.decisions.map((d) => d.id).sort()).toEqual([...want].sort());
  });

  for (const entry of coverage.decisions) {
    it(`${entry.id} is covered by MUST checks of the registry`, () => {
      expect(entry.checks.length).toBeGreaterThan(0);
      expect(entry.checks.filter((id) => !mustChecks.has(id))).toEqual([]);
    });
  }
});
