/** Tests of the report of a run whose target went away: which checks were not run, and the few lines printed. */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../runner/result.js";
import type { Verdict } from "../runner/verdict.js";
import { aVerdict } from "../testing/verdicts.js";
import { notRunChecks, targetGoneReport } from "./target-gone.js";

const gone = "not run: the target stopped answering (ECONNREFUSED, then ECONNREFUSED on a second request)";

function verdict(id: string, status: Verdict["status"], why?: string): Verdict {
  return aVerdict({
    id,
    status,
    ...(status === "skip" ? { skipReason: why ?? "needs --integration-id" } : {}),
    ...(status === "fail" ? { failure: { message: why ?? "answered 500" } } : {}),
  });
}

describe("notRunChecks", () => {
  const cases: { given: string; verdicts: Verdict[]; want: string[] }[] = [
    {
      given: "a run that ended",
      verdicts: [verdict("A", "pass"), verdict("B", "fail"), verdict("C", "skip")],
      want: [],
    },
    {
      given: "skipped after the target went, and a generated check that failed on it",
      verdicts: [verdict("A", "pass"), verdict("B", "skip", gone), verdict("C", "fail", `property failed: ${gone}`)],
      want: ["B", "C"],
    },
  ];
  for (const c of cases) it(c.given, () => expect(notRunChecks({ verdicts: c.verdicts })).toEqual(c.want));
});

describe("targetGoneReport", () => {
  it("says it once, lists the checks not run and what ran before, in three lines", () => {
    const result = {
      target: "http://127.0.0.1:1",
      verdicts: [verdict("A", "pass"), verdict("B", "fail"), verdict("C", "skip", gone), verdict("D", "skip", gone)],
    } as RunResult;
    const lines = targetGoneReport(result)!;
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/http:\/\/127\.0\.0\.1:1 stopped answering mid-run.*exit 2/);
    expect(lines[1]).toBe("Not run (2): C, D");
    expect(lines[2]).toBe("Done before (2): 1 passed, 1 failed (B), 0 skipped.");
  });
  it("is undefined when the target stayed", () => {
    expect(targetGoneReport({ target: "x", verdicts: [verdict("A", "pass")] } as RunResult)).toBeUndefined();
  });
});
