/** Tests of the console report: each failure printed once (with and without --quiet), and a summary that says when MUST checks were not judged. */
import { describe, expect, it } from "vitest";
import { weakRunWarnings } from "../coverage/warnings.js";
import { noVerdictPrefix } from "../runner/no-verdict.js";
import { exitCodeOf, type RunResult, summarize } from "../runner/result.js";
import type { Verdict } from "../runner/verdict.js";
import { aVerdict } from "../testing/verdicts.js";
import { renderConsole } from "./console.js";
import { groupProblems } from "./problems.js";

function verdict(
  id: string,
  level: Verdict["level"],
  status: Verdict["status"],
  extra: Partial<Verdict> = {},
): Verdict {
  return aVerdict({
    id,
    level,
    tags: ["listDeployments"],
    statement: `statement of ${id}`,
    specRef: level === "MUST" ? "interface-spec: 5" : "D-09",
    area: "deployments-list",
    status,
    ...extra,
  });
}

const failure = (message: string): Partial<Verdict> => ({
  failure: { message, curl: "curl -sS 'http://127.0.0.1:9/v2/deployments?limit=0'" },
});

/** A run of the given verdicts, summarized as the runner does. */
function run(verdicts: Verdict[]): RunResult {
  return {
    runId: "c0ns01",
    seed: 1,
    target: "http://127.0.0.1:9",
    startedAt: "2026-11-25T00:00:00.000Z",
    finishedAt: "2026-11-25T00:00:01.000Z",
    durationMs: 1000,
    config: {},
    summary: summarize(verdicts),
    verdicts,
    problems: groupProblems(verdicts),
    created: [],
    errors: [],
    warnings: weakRunWarnings({ verdicts, createdCount: 1, readOnly: false, warnSkippedPercent: 100 }),
    coverage: { operations: [], decisions: [], unexercised: [] },
    exitCode: exitCodeOf(verdicts, []),
  };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("renderConsole prints each failure once", () => {
  const verdicts = [
    verdict("DEP-LIST-004", "MUST", "fail", failure("limit=0: expected a 4xx answer, got 200")),
    verdict("DEP-LIST-037", "SHOULD", "fail", failure("returned 19 deployments, expected 20")),
    verdict("DEP-LIST-001", "MUST", "pass"),
  ];
  for (const quiet of [false, true]) {
    it(quiet ? "with --quiet" : "without --quiet", () => {
      const text = renderConsole(run(verdicts), { quiet });
      for (const message of ["limit=0: expected a 4xx answer, got 200", "returned 19 deployments, expected 20"])
        expect(count(text, message)).toBe(1);
      expect(count(text, "curl -sS")).toBe(2);
      expect(text).toContain("A MUST check failed (exit 1).");
    });
  }
});

describe("renderConsole says when MUST checks were not judged", () => {
  const cases: { name: string; given: Verdict[]; want: RegExp[]; not: RegExp[] }[] = [
    {
      name: "every MUST check ran and passed",
      given: [verdict("DEP-LIST-001", "MUST", "pass"), verdict("DEP-LIST-002", "SHOULD", "skip", { skipReason: "x" })],
      want: [/Every selected MUST check passed\./],
      not: [/skipped for missing setup/, /no verdict/],
    },
    {
      name: "MUST checks skipped for missing setup, each flag named in the warnings",
      given: [
        verdict("DEP-LIST-001", "MUST", "pass"),
        verdict("DEP-CREATE-010", "MUST", "skip", { skipReason: "needs --integration-id" }),
        verdict("SEM-006", "MUST", "skip", { skipReason: "needs --integration-id" }),
        verdict("ISO-001", "MUST", "skip", { skipReason: "needs --other-api-key" }),
      ],
      want: [
        /3 MUST checks were skipped for missing setup \(--integration-id: 2, --other-api-key: 1\)/,
        /Every MUST check that ran passed; 3 MUST checks were skipped for missing setup \(see Warnings\)\./,
      ],
      not: [/Every selected MUST check passed/],
    },
    {
      name: "a MUST check with no verdict (a refused decision input)",
      given: [
        verdict("DEP-LIST-001", "MUST", "pass"),
        verdict("DEP-CREATE-003", "MUST", "skip", {
          skipReason: `${noVerdictPrefix}: the target refused the internal_template body (400); DEP-CREATE-029 judges it at SHOULD`,
        }),
      ],
      want: [
        /1 MUST checks came to no verdict: .*\(DEP-CREATE-003\)/,
        /Every MUST check that ran passed; 1 came to no verdict/,
      ],
      not: [/Every selected MUST check passed/],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const text = renderConsole(run(c.given));
      for (const want of c.want) expect(text).toMatch(want);
      for (const not of c.not) expect(text).not.toMatch(not);
    });
  }
});
