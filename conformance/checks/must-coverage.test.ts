/** Every MUST decision and interface rule names the MUST checks that cover it (conformance/must-coverage.json). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allChecks } from "./index.js";

interface Entry {
  statement: string;
  checks: string[];
}
interface Coverage {
  decisions: (Entry & { id: string })[];
  interface: (Entry & { section: string; row?: string })[];
}
interface Tables {
  sections: { heading: string; tables?: { rows: Record<string, string>[] }[] }[];
}

const read = <T>(path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as T;
const coverage = read<Coverage>("../must-coverage.json");
const tables = read<Tables>("../../spec/interface-tables.json");
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

  it("names existing interface-spec sections and rows", () => {
    for (const entry of coverage.interface) {
      const section = tables.sections.find((s) => s.heading === entry.section);
      expect(section, entry.section).toBeDefined();
      if (entry.row)
        expect(
          section!.tables?.some((t) => t.rows.some((r) => Object.values(r)[0] === entry.row)),
          `${entry.section} / ${entry.row}`,
        ).toBe(true);
    }
  });

  for (const entry of [...coverage.decisions, ...coverage.interface]) {
    const label = "id" in entry ? entry.id : `${entry.section}${entry.row ? ` / ${entry.row}` : ""}`;
    it(`${label} is covered by MUST checks of the registry`, () => {
      expect(entry.checks.length).toBeGreaterThan(0);
      expect(entry.checks.filter((id) => !mustChecks.has(id))).toEqual([]);
    });
  }
});
