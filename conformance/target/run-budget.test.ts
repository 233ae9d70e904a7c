/** The run's budget (D-462, D-463): the deadline, the stop after slow answers in a row, and what the stop reports. */
import { afterEach, describe, expect, it } from "vitest";
import { CheckSkip } from "../runner/check.js";
import type { Verdict } from "../runner/verdict.js";
import { runStopIn, runStoppedReport, runStoppedWhy, seeAnswer, startRunBudget, throwIfStopped } from "./run-budget.js";

const limits = { runDeadlineMs: 60_000, maxSlowAnswers: 3, timeoutMs: 10_000 };

afterEach(() => startRunBudget({ runDeadlineMs: 60_000 }));

describe("the stop after slow answers in a row (D-463)", () => {
  const cases: { name: string; given: (number | undefined)[]; maxSlowAnswers?: number; want: RegExp | undefined }[] = [
    { name: "fast answers", given: [10, 20, 30, 40], want: undefined },
    { name: "three answers over half the timeout", given: [9000, 9000, 9000], want: /3 answers in a row were slow/ },
    { name: "timeouts count as slow answers", given: [undefined, 6000, undefined], want: /--max-slow-answers 3/ },
    { name: "a fast answer starts the row again", given: [9000, 9000, 100, 9000, 9000], want: undefined },
    { name: "half the timeout is not yet slow", given: [5000, 5000, 5000], want: undefined },
    { name: "0 never stops", given: [9000, 9000, 9000, 9000], maxSlowAnswers: 0, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      startRunBudget(limits, 0);
      for (const ms of c.given) seeAnswer({ ...limits, maxSlowAnswers: c.maxSlowAnswers ?? 3 }, ms);
      const why = runStoppedWhy(limits, 1);
      if (c.want === undefined) expect(why).toBeUndefined();
      else expect(why).toMatch(c.want);
    });
  }
});

describe("the run's deadline (D-462)", () => {
  it("stops the run once its time has passed, and only then", () => {
    startRunBudget({ runDeadlineMs: 5000 }, 1000);
    expect(runStoppedWhy({ runDeadlineMs: 5000 }, 6000)).toBeUndefined();
    expect(runStoppedWhy({ runDeadlineMs: 5000 }, 6001)).toBe("the run passed --run-deadline 5 s");
  });
  it("throws a not-run skip that names the reason", () => {
    startRunBudget({ runDeadlineMs: 1 }, performance.now() - 10);
    let thrown: unknown;
    try {
      throwIfStopped({ runDeadlineMs: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CheckSkip);
    expect(runStopIn(thrown)).toBe("not run: the run stopped (the run passed --run-deadline 0.001 s)");
    expect(runStopIn(new Error(`property failed: ${(thrown as CheckSkip).reason}\nmore`))).toMatch(/^not run: the run/);
    expect(runStopIn(new Error("a failure of its own"))).toBeUndefined();
  });
});

describe("runStoppedReport", () => {
  const verdict = (id: string, status: Verdict["status"], skipReason?: string): Verdict =>
    ({ id, status, ...(skipReason ? { skipReason } : {}) }) as Verdict;
  it("says why, and which checks did not run", () => {
    const lines = runStoppedReport({
      target: "http://t",
      verdicts: [
        verdict("A-1", "pass"),
        verdict("A-2", "skip", "not run: the run stopped (the run passed --run-deadline 5 s)"),
        verdict("A-3", "skip", "not run: the run stopped (the run passed --run-deadline 5 s)"),
      ],
    });
    expect(lines?.[0]).toContain("stopped: the run passed --run-deadline 5 s. Exit 2");
    expect(lines?.[1]).toBe("Not run (2): A-2, A-3. Done before: 1; the report holds what ran.");
  });
  it("is nothing for a run that ended", () => {
    expect(
      runStoppedReport({ target: "http://t", verdicts: [verdict("A-1", "skip", "no --other-api-key given")] }),
    ).toBe(undefined);
  });
});
