/** The inventory of normative statements (conformance/normative-coverage.json): each statement of the texts the suite answers to, with the checks that judge it or why none can. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { StatementUnit } from "./statement-units.js";

/** The texts a statement may come from: the interface spec, the project's profile, and the RFCs a JSON API over HTTP touches. */
export const statementSources = [
  "interface-spec",
  "profile",
  "RFC 8259",
  "RFC 7493",
  "RFC 9110",
  "RFC 9112",
  "RFC 9457",
  "RFC 6585",
  "RFC 3986",
] as const;

export type StatementSource = (typeof statementSources)[number];

/**
 * One normative statement: judged by `checks`, or `notJudged` with the reason no request over HTTP can show it, or
 * `open`: a statement a check could judge and none does yet, counted and listed as such.
 */
export interface NormativeStatement {
  id: string;
  source: StatementSource;
  /** The interface spec's heading, the profile's "choice N" or "fact: Topic", or an RFC's "§x.y". */
  section: string;
  /** An interface-spec table row: its first cell. */
  row?: string;
  /** An interface-spec line of prose: an exact part of it. */
  quote?: string;
  statement: string;
  /** The level the suite judges it at: MUST, SHOULD, or informative (notation, a name, a gap). */
  level: "MUST" | "SHOULD" | "informative";
  /** An RFC's own keyword for it, where it differs from the suite's level or says more. */
  keyword?: string;
  /** Why the suite judges an RFC's MUST at SHOULD. */
  levelReason?: string;
  decisions?: string[];
  checks?: string[];
  notJudged?: string;
  open?: string;
}

/** What validation needs of a check of the registry. */
export interface CheckLevel {
  id: string;
  level: "MUST" | "SHOULD";
}

/** The inventory as the repository holds it. */
const inventoryPath = resolve(import.meta.dirname, "..", "..", "conformance", "normative-coverage.json");

export function loadInventory(): NormativeStatement[] {
  return (JSON.parse(readFileSync(inventoryPath, "utf8")) as { statements: NormativeStatement[] }).statements;
}

/** Whether a statement of the interface spec stands for a unit: a row by its section and first cell, a line of prose by a quote from it. */
function covers(s: NormativeStatement, unit: StatementUnit): boolean {
  if (s.source !== "interface-spec" || s.section !== unit.section) return false;
  return unit.kind === "row"
    ? s.row === unit.row
    : s.row === undefined && s.quote !== undefined && unit.text.includes(s.quote);
}

/**
 * Every way a statement is not traced: unknown checks or decisions, not exactly one of checks, a reason or an open
 * note, a MUST judged by no MUST check, an RFC's MUST judged lower without a reason, a place that names no unit.
 */
export function inventoryProblems(
  statements: NormativeStatement[],
  checks: CheckLevel[],
  decisionIds: ReadonlySet<string>,
  units: StatementUnit[],
): string[] {
  const levels = new Map(checks.map((check) => [check.id, check.level]));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const s of statements) {
    const at = `${s.id} (${s.source} ${s.section})`;
    if (seen.has(s.id)) problems.push(`${at}: the id is used twice`);
    seen.add(s.id);
    if (!statementSources.includes(s.source)) problems.push(`${at}: unknown source`);
    const judged = (s.checks ?? []).length > 0;
    const given = [judged, Boolean(s.notJudged?.trim()), Boolean(s.open?.trim())].filter(Boolean).length;
    if (given !== 1)
      problems.push(
        `${at}: needs exactly one of checks, the reason it cannot be judged, or an open note, not ${given === 0 ? "none" : given}`,
      );
    if (s.keyword === "MUST" && s.level !== "MUST" && !s.levelReason?.trim())
      problems.push(`${at}: the RFC says MUST and the suite judges it at ${s.level} without a levelReason`);
    for (const id of s.checks ?? []) if (!levels.has(id)) problems.push(`${at}: no check ${id}`);
    for (const id of s.decisions ?? []) if (!decisionIds.has(id)) problems.push(`${at}: no decision ${id}`);
    if (s.level === "MUST" && judged && !(s.checks ?? []).some((id) => levels.get(id) === "MUST"))
      problems.push(`${at}: a MUST statement judged by no MUST check`);
    if (s.source === "interface-spec") {
      const named = units.filter((unit) => covers(s, unit)).length;
      if (s.row !== undefined ? named === 0 : named !== 1)
        problems.push(`${at}: names no single row or line of that section`);
    }
  }
  for (const unit of units.filter((u) => !statements.some((s) => covers(s, u))))
    problems.push(
      `interface-spec ${unit.section}: no statement covers "${unit.kind === "row" ? unit.row : unit.text}"`,
    );
  return problems;
}
