/** The inventory of normative statements: every statement traced to checks or a reason, every row and line of the interface spec covered, and the document current. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allChecks } from "../../conformance/checks/index.js";
import {
  type CheckLevel,
  inventoryProblems,
  loadInventory,
  type NormativeStatement,
  statementSources,
} from "./inventory.js";
import { currentProblems, documentPath, renderDocument } from "./normative-coverage.js";
import type { StatementUnit } from "./statement-units.js";

const checks: CheckLevel[] = [
  { id: "A-001", level: "MUST" },
  { id: "A-002", level: "SHOULD" },
];
const units: StatementUnit[] = [
  { section: "Limits", kind: "row", row: "limit", text: "limit | 1 to 100" },
  { section: "Errors", kind: "prose", text: "The constraints are the required fields." },
];
const covering: NormativeStatement[] = [
  {
    id: "S-1",
    source: "interface-spec",
    section: "Limits",
    row: "limit",
    statement: "s",
    level: "MUST",
    checks: ["A-001"],
  },
  {
    id: "S-2",
    source: "interface-spec",
    section: "Errors",
    quote: "required fields",
    statement: "s",
    level: "informative",
    notJudged: "a gap",
  },
];

describe("inventoryProblems", () => {
  const cases: { name: string; given: NormativeStatement[]; want: RegExp[] }[] = [
    { name: "a complete inventory", given: covering, want: [] },
    {
      name: "a statement with neither checks nor a reason",
      given: [{ ...covering[0]!, checks: [] }, covering[1]!],
      want: [/S-1 .*not none/],
    },
    {
      name: "a statement with both",
      given: [{ ...covering[0]!, notJudged: "why" }, covering[1]!],
      want: [/S-1 .*not 2/],
    },
    {
      name: "a MUST statement judged only at SHOULD",
      given: [{ ...covering[0]!, checks: ["A-002"] }, covering[1]!],
      want: [/S-1 .*judged by no MUST check/],
    },
    {
      name: "an unknown check",
      given: [{ ...covering[0]!, checks: ["A-001", "Z-9"] }, covering[1]!],
      want: [/no check Z-9/],
    },
    {
      name: "an unknown decision",
      given: [{ ...covering[0]!, decisions: ["D-9999"] }, covering[1]!],
      want: [/no decision D-9999/],
    },
    {
      name: "a row of the interface spec left out",
      given: [covering[1]!],
      want: [/Limits: no statement covers "limit"/],
    },
    {
      name: "a quote found in no line",
      given: [covering[0]!, { ...covering[1]!, quote: "not in the text" }],
      want: [/S-2 .*names no single row or line/, /Errors: no statement covers/],
    },
    { name: "an open note", given: [{ ...covering[0]!, checks: [], open: "no check yet" }, covering[1]!], want: [] },
    {
      name: "an RFC's MUST judged at SHOULD without a reason",
      given: [...covering, { ...covering[0]!, id: "S-3", source: "RFC 9110", keyword: "MUST", level: "SHOULD" }],
      want: [/S-3 .*without a levelReason/],
    },
    { name: "an id used twice", given: [covering[0]!, { ...covering[1]!, id: "S-1" }], want: [/S-1 .*used twice/] },
  ];
  for (const { name, given, want } of cases)
    it(name, () => {
      const problems = inventoryProblems(given, checks, new Set(["D-01"]), units);
      expect(problems).toHaveLength(want.length);
      for (const [index, pattern] of want.entries()) expect(problems[index]).toMatch(pattern);
    });
});

describe("conformance/normative-coverage.json", () => {
  it("traces every statement, covers every row and line of the interface spec, and judges every MUST at MUST", () => {
    expect(currentProblems()).toEqual([]);
  });

  it("holds statements of every source the suite answers to", () => {
    const sources = new Set(loadInventory().map((s) => s.source));
    for (const source of statementSources) expect(sources, source).toContain(source);
  });

  it("holds each of the profile's fifteen choices", () => {
    const choices = new Set(
      loadInventory()
        .filter((s) => s.source === "profile")
        .map((s) => s.section),
    );
    for (let n = 1; n <= 15; n++) expect(choices, `choice ${n}`).toContain(`choice ${n}`);
  });

  it("docs/normative-coverage.md is current (npm run normative-coverage writes it)", () => {
    expect(readFileSync(documentPath, "utf8")).toBe(renderDocument(loadInventory(), allChecks));
  });
});
