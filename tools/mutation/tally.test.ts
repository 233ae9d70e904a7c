import { describe, expect, it } from "vitest";
import { type ReportMutant, reportMarkdown, type Survivor, tally, triageProblems } from "./tally.js";

const mutant = (status: string, line = 1): ReportMutant => ({
  id: `${status}${line}`,
  mutatorName: "StringLiteral",
  replacement: '""',
  status,
  location: { start: { line, column: 5 }, end: { line, column: 9 } },
});

describe("tally", () => {
  const cases = [
    { name: "nothing", given: [], want: { score: 100, coveredScore: 100 } },
    {
      name: "timed out counts as detected, no coverage only in the score",
      given: [mutant("Killed"), mutant("Timeout"), mutant("Survived"), mutant("NoCoverage"), mutant("Ignored")],
      want: { killed: 1, timeout: 1, survived: 1, noCoverage: 1, other: 1, score: 50, coveredScore: (100 * 2) / 3 },
    },
  ];
  for (const { name, given, want } of cases) it(name, () => expect(tally(given)).toMatchObject(want));
});

describe("reportMarkdown", () => {
  it("lists the survivors survivors.json does not triage, and each file's counts", () => {
    const triaged: Survivor = {
      file: "server/a.ts",
      line: 2,
      column: 5,
      endLine: 2,
      endColumn: 9,
      mutator: "StringLiteral",
      replacement: '""',
      kind: "equivalent",
      reason: "r",
    };
    const text = reportMarkdown(
      { files: { "server/a.ts": { mutants: [mutant("Killed", 1), mutant("Survived", 2), mutant("Survived", 3)] } } },
      [triaged],
      { commit: "abc1234", date: "2026-11-27" },
    );
    expect(text).toContain("Last recorded run: commit abc1234, 2026-11-27. Raw score: 33.3% of 3 mutants");
    expect(text).toContain("| server (all) | 33.3 | 33.3 | 1 | 0 | 2 | 0 |");
    expect(text).toContain("| server/ | 33.3 | 33.3 | 1 | 0 | 2 | 0 |");
    expect(text).toContain("| server/a.ts | 33.3 | 33.3 | 1 | 0 | 2 | 0 |");
    expect(text).toContain("- server/a.ts:3:5 StringLiteral (Survived)");
    expect(text).not.toContain("server/a.ts:2:5");
  });

  it("names the files of the scope that no recorded run has mutated, and none when every one has", () => {
    const report = { files: { "server/a.ts": { mutants: [mutant("Killed", 1)] } } };
    const given = { commit: "abc1234", date: "2026-11-27" };
    expect(reportMarkdown(report, [], { ...given, notRun: ["server/b.ts", "server/c.ts"] })).toContain(
      "Files of the scope with no recorded result (2: not run yet, or nothing to mutate, such as a file of types only): server/b.ts, server/c.ts.",
    );
    expect(reportMarkdown(report, [], { ...given, notRun: [] })).not.toContain("no recorded result");
  });

  it("counts the unkilled mutants by triage, and the score less the mutants triaged equivalent", () => {
    const survivor = (line: number, kind: Survivor["kind"]): Survivor => ({
      file: "server/a.ts",
      line,
      column: 5,
      endLine: line,
      endColumn: 9,
      mutator: "StringLiteral",
      replacement: '""',
      kind,
      reason: "r",
    });
    const mutants = [
      mutant("Killed", 1),
      mutant("Timeout", 2),
      mutant("Survived", 3),
      mutant("NoCoverage", 4),
      mutant("Survived", 5),
      mutant("Survived", 6),
    ];
    const text = reportMarkdown(
      { files: { "server/a.ts": { mutants } } },
      [survivor(3, "equivalent"), survivor(4, "not-observable"), survivor(5, "open-choice")],
      { commit: "abc1234", date: "2026-11-28" },
    );
    // six valid mutants, one triaged equivalent: two killed of five (not-observable stays in)
    expect(text).toContain("| server (all) | 1 | 1 | 0 | 1 | 0 | 1 | 2 of 5, 40.0 |");
    expect(text).toContain("| sandbox engine (all) | 0 | 0 | 0 | 0 | 0 | 0 | 0 of 0, 100.0 |");
  });
});

describe("triageProblems", () => {
  const entry = (line: number, kind: Survivor["kind"], replacement = '""'): Survivor => ({
    file: "server/a.ts",
    line,
    column: 5,
    endLine: line,
    endColumn: 9,
    mutator: "StringLiteral",
    replacement,
    kind,
    reason: "r",
  });
  const report = { files: { "server/a.ts": { mutants: [mutant("Killed", 1), mutant("Survived", 2)] } } };
  const cases: { name: string; given: Survivor[]; want: string[] }[] = [
    { name: "an entry of each unkilled mutant", given: [entry(2, "equivalent")], want: [] },
    {
      name: "an entry of a killed mutant is stale",
      given: [entry(2, "equivalent"), entry(1, "open-choice")],
      want: ['server/a.ts:1:5-1:9 StringLiteral "\\"\\"": matches no unkilled mutant'],
    },
    {
      name: "another replacement is another mutant",
      given: [entry(2, "equivalent"), entry(2, "equivalent", '"Stryker was here!"')],
      want: ['server/a.ts:2:5-2:9 StringLiteral "\\"Stryker was here!\\"": matches no unkilled mutant'],
    },
    {
      name: "another end is another mutant",
      given: [{ ...entry(2, "equivalent"), endColumn: 30 }],
      want: ['server/a.ts:2:5-2:30 StringLiteral "\\"\\"": matches no unkilled mutant'],
    },
    {
      name: "a key given twice, and with two kinds",
      given: [entry(2, "equivalent"), entry(2, "equivalent"), entry(2, "open-choice")],
      want: ['server/a.ts:2:5-2:9 StringLiteral "\\"\\"": two kinds (equivalent, open-choice)'],
    },
    {
      name: "a file the report does not hold is not judged",
      given: [{ ...entry(9, "equivalent"), file: "server/b.ts" }],
      want: [],
    },
  ];
  for (const { name, given, want } of cases) it(name, () => expect(triageProblems(report, given)).toEqual(want));
});
