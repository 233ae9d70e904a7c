/** The result of a whole run: verdicts, problems, summary per level, created resources, exit code (0 / 1 / 2). */

import type { Coverage } from "../coverage/matrix.js";
import type { Problem } from "../report/problems.js";
import type { RateLimitTally } from "../target/rate-limit.js";
import type { CreatedResource, Level } from "./check.js";
import type { Verdict } from "./verdict.js";

export interface LevelSummary {
  pass: number;
  fail: number;
  skip: number;
}

export interface RunResult {
  runId: string;
  seed: number;
  target: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** The configuration without secrets. */
  config: Record<string, unknown>;
  summary: Record<Level, LevelSummary>;
  verdicts: Verdict[];
  /** The failed checks grouped by cause, MUST problems first (D-243): one bug reads as one problem. */
  problems: Problem[];
  created: (CreatedResource & { check: string })[];
  /** Errors of the runner itself (a suite file that failed to load). */
  errors: string[];
  /** Signs that the run proved little (every answer 401/403, nothing created, most checks skipped). */
  warnings: string[];
  /** Per operation × documented status and per decision: reached, passed, failed. */
  coverage: Coverage;
  /** The 429 answers and the 503 answers with Retry-After the run waited for and how long, and time paced by --max-rps (D-380). */
  rateLimits?: RateLimitTally;
  /** 2 when the target refused creates for a quota or limit (D-242): a setup problem, not a verdict. */
  exitCode: 0 | 1 | 2;
}

/** Counts verdicts per level. */
export function summarize(verdicts: Verdict[]): Record<Level, LevelSummary> {
  const summary: Record<Level, LevelSummary> = {
    MUST: { pass: 0, fail: 0, skip: 0 },
    SHOULD: { pass: 0, fail: 0, skip: 0 },
  };
  for (const v of verdicts) summary[v.level][v.status] += 1;
  return summary;
}

/**
 * Exit 1 when a MUST check failed or the runner itself failed, or, with --fail-on-unexercised, when a
 * documented status was never reached; SHOULD failures are reported, not fatal.
 */
export function exitCodeOf(verdicts: Verdict[], errors: string[], unexercised: string[] = []): 0 | 1 {
  return verdicts.some((v) => v.level === "MUST" && v.status === "fail") || errors.length > 0 || unexercised.length > 0
    ? 1
    : 0;
}

/** Every resource created, with the check that created it. */
export function createdResources(verdicts: Verdict[]): (CreatedResource & { check: string })[] {
  return verdicts.flatMap((v) => (v.created ?? []).map((c) => ({ ...c, check: v.id })));
}
