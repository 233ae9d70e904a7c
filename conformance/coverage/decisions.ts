/** The decision rows of spec/decisions.md (D-NN and level), read from the table so the matrix never drifts from it. */
import { existsSync, readFileSync } from "node:fs";

/** One row of the decisions table: its id and the level column (MUST, SHOULD, or both). */
export interface DecisionRow {
  id: string;
  level: "MUST" | "SHOULD" | "MUST/SHOULD";
}

/** The table rows of a decisions document: `| D-NN | gap | decision | level | reason |`; `\|` inside a cell is not a separator. */
export function parseDecisions(markdown: string): DecisionRow[] {
  const rows: DecisionRow[] = [];
  for (const line of markdown.split("\n")) {
    if (!/^\|\s*D-\d+\s*\|/.test(line)) continue;
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const id = cells[1]!;
    const levelText = cells[4] ?? "";
    const must = /\bMUST\b/.test(levelText);
    const should = /\bSHOULD\b/.test(levelText);
    rows.push({ id, level: must && should ? "MUST/SHOULD" : must ? "MUST" : "SHOULD" });
  }
  return rows;
}

/** The decision ids a check's spec pointer cites: `D-16`, `D-13 to D-15` (a range), `D-28; interface-spec: ...`. */
export function citedDecisions(specRef: string): string[] {
  const ids: string[] = [];
  for (const match of specRef.matchAll(/D-(\d+)(?:\s*(?:to|–)\s*D-(\d+))?/g)) {
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    for (let n = from; n <= Math.max(from, to); n++) ids.push(`D-${String(n).padStart(2, "0")}`);
  }
  return [...new Set(ids)];
}

/** The decisions file beside the suite (a clone, or the package, which ships it); none when it is absent. */
export function loadDecisions(): DecisionRow[] {
  const file = new URL("../../spec/decisions.md", import.meta.url);
  return existsSync(file) ? parseDecisions(readFileSync(file, "utf8")) : [];
}
