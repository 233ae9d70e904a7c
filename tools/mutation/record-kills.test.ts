import { describe, expect, it } from "vitest";
import { type Incremental, recordKills } from "./record-kills.js";

const at = (line: number) => ({ start: { line, column: 1 }, end: { line, column: 5 } });
const mutant = (line: number, status: string, replacement = "true") => ({
  mutatorName: "ConditionalExpression",
  replacement,
  status,
  location: at(line),
});

describe("recordKills", () => {
  const cases: { name: string; committed: string; run: string; want: { kept: number; status: string } }[] = [
    { name: "a survivor the run killed", committed: "Survived", run: "Killed", want: { kept: 1, status: "Killed" } },
    {
      name: "a mutant no test reached, timed out by the run",
      committed: "NoCoverage",
      run: "Timeout",
      want: { kept: 1, status: "Timeout" },
    },
    {
      name: "a kill the run did not repeat",
      committed: "Killed",
      run: "Survived",
      want: { kept: 0, status: "Killed" },
    },
    {
      name: "a survivor the run left alive",
      committed: "Survived",
      run: "Survived",
      want: { kept: 0, status: "Survived" },
    },
  ];
  for (const { name, committed, run, want } of cases)
    it(name, () => {
      const base: Incremental = { files: { "a.ts": { mutants: [mutant(3, committed)] } } };
      const fresh: Incremental = { files: { "a.ts": { mutants: [mutant(3, run)] } } };
      expect(recordKills(base, fresh)).toBe(want.kept);
      expect(base.files["a.ts"]!.mutants[0]!.status).toBe(want.status);
    });

  it("matches by place, mutator and replacement", () => {
    const base: Incremental = { files: { "a.ts": { mutants: [mutant(3, "Survived", "false")] } } };
    const fresh: Incremental = { files: { "a.ts": { mutants: [mutant(3, "Killed", "true")] } } };
    expect(recordKills(base, fresh)).toBe(0);
  });

  it("adds the run's test files the committed file lacks", () => {
    const base: Incremental = { files: {}, testFiles: { "old.ts": 1 } };
    recordKills(base, { files: {}, testFiles: { "new.ts": 2, "old.ts": 3 } });
    expect(base.testFiles).toEqual({ "new.ts": 2, "old.ts": 1 });
  });
});
