/** Weak-run warnings: the run passed, but proved little (every answer an auth failure, no integration found, MUST checks skipped for missing setup, nothing created, most checks skipped). */

import { sampledOperations } from "../check-kit/operation-samples.js";
import { CheckSkip } from "../runner/check.js";
import { noVerdictPrefix } from "../runner/no-verdict.js";
import type { Verdict } from "../runner/verdict.js";
import { rateLimitStopIn } from "../target/rate-limit.js";

/** The operations that read an integration (operations 3 and 4): all-404 means the configured integration is unknown to the target. */
const integrationOperations = new Set<string>(
  sampledOperations.filter(({ sample }) => sample.integration).map(({ operation }) => operation.id),
);

interface WeakRunInput {
  verdicts: readonly Verdict[];
  createdCount: number;
  readOnly: boolean;
  /** Warn when more than this share (percent) of the checks was skipped. */
  warnSkippedPercent: number;
}

/** One sentence per sign of a weak run, each saying what to look at. */
export function weakRunWarnings(input: WeakRunInput): string[] {
  const warnings: string[] = [];
  // requests to no operation (unknown paths, other methods) answer 404/405 whatever the key
  const answers = input.verdicts.flatMap((v) => v.answers ?? []).filter((a) => a.operation !== undefined);
  const total = answers.reduce((n, a) => n + a.count, 0);
  if (total > 0 && answers.every((a) => a.status === 401 || a.status === 403))
    warnings.push(
      `every one of the ${total} answers of contract operations was 401 or 403: check --api-key and --tenant-id`,
    );
  const integration = answers.filter((a) => integrationOperations.has(a.operation!));
  if (integration.length > 0 && integration.every((a) => a.status === 404))
    warnings.push(
      "every answer of the integration operations (3 and 4) was 404: check --integration-id and --managed-integration-id",
    );
  const setup = missingSetup(input.verdicts);
  if (setup.length > 0)
    warnings.push(
      `${setup.reduce((n, s) => n + s.count, 0)} MUST checks were skipped for missing setup (${setup.map((s) => `${s.flag}: ${s.count}`).join(", ")}): see \`deployment-conformance doctor\``,
    );
  const limited = rateLimited(input.verdicts);
  if (limited.length > 0)
    warnings.push(
      `${limited.length} MUST checks came to no verdict: the target still rate-limited them past the retry budget (${limited.join(", ")}); raise --retry-budget or --retry-total, or lower --max-rps (D-380)`,
    );
  const undecided = noVerdict(input.verdicts);
  if (undecided.length > 0)
    warnings.push(
      `${undecided.length} MUST checks came to no verdict: the target refused an input only a decision makes valid (${undecided.join(", ")}); the SHOULD check each skip reason names judges the refusal`,
    );
  const ran = input.verdicts.filter((v) => v.status !== "skip").length;
  if (ran > 0 && input.createdCount === 0 && !input.readOnly)
    warnings.push("the run created nothing: no deployment or OAuth provider creation succeeded");
  const skipped = input.verdicts.length - ran;
  if (input.verdicts.length > 0 && (skipped * 100) / input.verdicts.length > input.warnSkippedPercent)
    warnings.push(
      `${skipped} of ${input.verdicts.length} checks (${Math.round((skipped * 100) / input.verdicts.length)}%) were skipped, more than ${input.warnSkippedPercent}%: see the skip reasons`,
    );
  return warnings;
}

/** The MUST checks skipped because an input was not given (skip reason "needs --flag"), counted per flag. */
export function missingSetup(verdicts: readonly Verdict[]): { flag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const v of verdicts) {
    const flag =
      v.level === "MUST" && v.status === "skip" ? /^needs (--[a-z-]+)/.exec(v.skipReason ?? "")?.[1] : undefined;
    if (flag) counts.set(flag, (counts.get(flag) ?? 0) + 1);
  }
  return [...counts].map(([flag, count]) => ({ flag, count }));
}

/** The MUST checks skipped because the target refused an input drawn from a decision (D-180). */
/** The MUST checks a rate limit left without a verdict past their retry budget (D-380). */
function rateLimited(verdicts: readonly Verdict[]): string[] {
  return verdicts
    .filter((v) => v.level === "MUST" && v.status === "skip" && rateLimitStopIn(new CheckSkip(v.skipReason ?? "")))
    .map((v) => v.id);
}

export function noVerdict(verdicts: readonly Verdict[]): string[] {
  return verdicts
    .filter((v) => v.level === "MUST" && v.status === "skip" && (v.skipReason ?? "").startsWith(noVerdictPrefix))
    .map((v) => v.id);
}
