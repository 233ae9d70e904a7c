import { describe, expect, it } from "vitest";
import { type ReportMutant, reportMarkdown, type Survivor, tally } from "./tally.js";

const mutant = (status: string, line = 1): ReportMutant => ({
  id: `${status}${line}`,
  mutatorName: "StringLiteral",
  status,
  location: { start: { line, column: 5 } },
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
    expect(text).toContain("Commit abc1234, 2026-11-27: 3 mutants, score 33.3%");
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

  it("counts the unkilled mutants by triage, and the share killed of those that can change an answer", () => {
    const survivor = (line: number, kind: Survivor["kind"]): Survivor => ({
      file: "server/a.ts",
      line,
      column: 5,
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
    // six valid mutants, two of them unable to change an answer: two killed of four
    expect(text).toContain("| server/ | 1 | 1 | 1 | 0 | 1 | 2 of 4, 50.0 |");
    expect(text).toContain("| mock/src/engine/ | 0 | 0 | 0 | 0 | 0 | 0 of 0, 100.0 |");
  });
});
