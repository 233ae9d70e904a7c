/**
 * The run's budget of time (D-462, D-463): a deadline for the whole run (--run-deadline) and a stop after repeated
 * slow answers or answers that never came (--max-slow-answers). Past either, the run stops: every later check is
 * "not run" (never a failure), and the CLI says why, writes the report of what ran and exits 2.
 */
import type { ConformanceConfig } from "../cli/run-config.js";
import { CheckSkip } from "../runner/check.js";
import type { RunResult } from "../runner/result.js";

/** Every verdict of a check the stop left undone carries this text (skip reason or, through fast-check, failure). */
const runStoppedMarker = "not run: the run stopped";

type Limits = Pick<ConformanceConfig, "runDeadlineMs" | "maxSlowAnswers" | "timeoutMs">;

/** The run in this process: when its deadline falls, how many slow answers came in a row, and why it stopped. */
let deadlineAt = Number.POSITIVE_INFINITY;
let slowInRow = 0;
let stoppedWhy: string | undefined;

/** The run stopped: the check is not run. */
class RunStopped extends CheckSkip {
  constructor(why: string) {
    super(`${runStoppedMarker} (${why})`);
  }
}

/** A new run starts its clock and forgets an earlier run's slow answers (a program may run the suite more than once). */
export function startRunBudget(config: Pick<ConformanceConfig, "runDeadlineMs">, nowMs = performance.now()): void {
  deadlineAt = nowMs + config.runDeadlineMs;
  slowInRow = 0;
  stoppedWhy = undefined;
}

/** Why the run stopped, or undefined while it goes on; the deadline is read against `nowMs`. */
export function runStoppedWhy(
  config: Pick<ConformanceConfig, "runDeadlineMs">,
  nowMs = performance.now(),
): string | undefined {
  if (stoppedWhy === undefined && nowMs > deadlineAt)
    stoppedWhy = `the run passed --run-deadline ${config.runDeadlineMs / 1000} s`;
  return stoppedWhy;
}

/** Throws RunStopped when the run has stopped: called before each request and before each check. */
export function throwIfStopped(config: Pick<ConformanceConfig, "runDeadlineMs">): void {
  const why = runStoppedWhy(config);
  if (why !== undefined) throw new RunStopped(why);
}

/** The time past which an answer is slow: half the request timeout. */
function slowAfterMs(config: Pick<ConformanceConfig, "timeoutMs">): number {
  return config.timeoutMs / 2;
}

/**
 * Counts one answer (its time in ms) or one that never came (`undefined`: a timeout, or a body below the least pace):
 * a slow answer or none adds to the answers in a row; any other answer starts the row again. The row's
 * --max-slow-answers-th stops the run (0: never).
 */
export function seeAnswer(config: Limits, durationMs: number | undefined): void {
  const slow = durationMs === undefined || durationMs > slowAfterMs(config);
  slowInRow = slow ? slowInRow + 1 : 0;
  if (stoppedWhy === undefined && config.maxSlowAnswers > 0 && slowInRow >= config.maxSlowAnswers)
    stoppedWhy = `${slowInRow} answers in a row were slow (each took more than ${slowAfterMs(config)} ms, half of --timeout-ms, or never came): --max-slow-answers ${config.maxSlowAnswers}`;
}

/** The reason a check was not run when what it threw carries the run's stop (also through fast-check's own error), else undefined. */
export function runStopIn(error: unknown): string | undefined {
  const message = error instanceof CheckSkip ? error.reason : error instanceof Error ? error.message : "";
  const at = message.indexOf(runStoppedMarker);
  return at === -1 ? undefined : message.slice(at).split("\n")[0];
}

/** The lines the CLI prints after the report when the run stopped, or undefined when it ran to its end. */
export function runStoppedReport(result: Pick<RunResult, "verdicts" | "target">): string[] | undefined {
  const notRun = result.verdicts.filter((v) => v.status === "skip" && v.skipReason?.startsWith(runStoppedMarker));
  if (notRun.length === 0) return undefined;
  const why = /\((.*)\)$/.exec(notRun[0]!.skipReason ?? "")?.[1] ?? "its budget was spent";
  const done = result.verdicts.length - notRun.length;
  return [
    `conformance: the run against ${result.target} stopped: ${why}. Exit 2: the target is too slow to judge, not a verdict.`,
    `Not run (${notRun.length}): ${notRun.map((v) => v.id).join(", ")}. Done before: ${done}; the report holds what ran.`,
  ];
}
