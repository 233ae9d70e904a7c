/** The suite's own runner: checks are data, run one after another in area order, each to a verdict; no test framework. */

import { areas } from "../checks/index.js";
import type { RunConfig } from "../cli/run-config.js";
import { toCurl } from "../report/curl.js";
import type { Exchange } from "../target/http-exchange.js";
import { shownExchange, TransportError } from "../target/http-exchange.js";
import { forgetRateLimits, rateLimitStopIn, waitNote } from "../target/rate-limit.js";
import { runStopIn, runStoppedWhy, startRunBudget } from "../target/run-budget.js";
import { fullStopIn } from "../target/target-full.js";
import { forgetTargetGone, isSetupStop } from "../target/target-gone.js";
import { answersOf } from "./answer-counts.js";
import { type Check, CheckFailure, CheckSkip } from "./check.js";
import { isSelected, unmetNeed } from "./check-selection.js";
import { createContext, type Fixtures } from "./runtime.js";
import { shuffled } from "./shuffle.js";
import type { Verdict } from "./verdict.js";

/** A check that has not finished after this long fails (the fuzz and stateful checks take the longest). */
export const checkTimeoutMs = 120_000;

/** Raised inside the runner when a check overruns checkTimeoutMs. */
class CheckTimeout extends Error {
  override name = "CheckTimeout";
}

/**
 * Whether an earlier schema breach explains what a check threw (D-244): a crash or a skip that followed it, or the
 * check's own assertion about a field the breach found missing. A setup stop or a timeout is never explained by it.
 */
function explainedBy(thrown: unknown, breach: CheckFailure): boolean {
  if (isSetupStop(thrown) || thrown instanceof CheckTimeout) return false;
  if (!(thrown instanceof CheckFailure)) return true;
  const missing = /must have required property '([^']+)'/.exec(breach.message)?.[1];
  return (
    missing !== undefined && new RegExp(`\\b${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(thrown.message)
  );
}

/**
 * The exchange a failure keeps for its report: the request and the answer as shown, without the parsed body, so a run
 * of failed checks holds no parsed answer past its check (D-460).
 */
function reported(exchange: Exchange): Exchange {
  return { ...shownExchange(exchange), json: undefined };
}

/**
 * Runs one check against the configured target and turns what happened into its verdict; never throws. `fixtures` are
 * shared with the checks of its area, `runFixtures` with every check of the run (none when left out).
 */
export async function runCheck(
  check: Check,
  area: string,
  config: RunConfig,
  fixtures: Fixtures,
  runFixtures: Fixtures = new Map(),
): Promise<Verdict> {
  const verdict: Verdict = {
    id: check.id,
    level: check.level,
    tags: check.tags,
    statement: check.statement,
    specRef: check.specRef,
    area,
    status: "pass",
    durationMs: 0,
  };
  const unmet = unmetNeed(check, config);
  if (unmet) return { ...verdict, status: "skip", skipReason: unmet };
  const stopped = runStoppedWhy(config);
  if (stopped) return { ...verdict, status: "skip", skipReason: `not run: the run stopped (${stopped})` };
  const ctx = createContext(config, fixtures, check, runFixtures);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CheckTimeout(`the check did not finish within ${checkTimeoutMs / 1000} s`)),
          checkTimeoutMs,
        );
      }),
    ]);
  } catch (thrown) {
    // a breach of the schema explains a crash or a skip that followed it; the check's own assertion comes first (D-244)
    const breach = ctx.schemaBreaches[0];
    const error = breach && explainedBy(thrown, breach) ? breach : thrown;
    const full = fullStopIn(error);
    const limited = rateLimitStopIn(error);
    const ranOut = runStopIn(error);
    if (full !== undefined || limited !== undefined || ranOut !== undefined) {
      verdict.status = "skip";
      verdict.skipReason = full ?? limited ?? ranOut;
    } else if (error instanceof CheckSkip) {
      verdict.status = "skip";
      verdict.skipReason = error.reason;
    } else {
      verdict.status = "fail";
      const exchange = error instanceof CheckFailure ? (error.exchange ?? ctx.exchanges.at(-1)) : ctx.exchanges.at(-1);
      const message =
        error instanceof CheckFailure || error instanceof CheckTimeout
          ? error.message
          : error instanceof TransportError
            ? `the target did not answer: ${error.message}`
            : `the check could not complete: ${(error as Error).stack ?? String(error)}`;
      verdict.failure = {
        message,
        ...(exchange
          ? { exchange: reported(exchange), curl: toCurl(exchange.request) }
          : error instanceof TransportError
            ? { curl: toCurl(error.request) }
            : {}),
        ...(error instanceof CheckFailure ? {} : { error: true }),
      };
    }
  } finally {
    clearTimeout(timer);
  }
  const breach = ctx.schemaBreaches[0];
  if (verdict.status === "pass" && breach)
    verdict.failure = {
      message: breach.message,
      ...(breach.exchange ? { exchange: reported(breach.exchange), curl: toCurl(breach.exchange.request) } : {}),
    };
  if (verdict.failure) verdict.status = "fail";
  verdict.durationMs = Math.round(performance.now() - started);
  verdict.created = ctx.createdResources;
  const waited = waitNote(ctx.waits);
  verdict.notes = waited ? [...ctx.notes, waited] : ctx.notes;
  verdict.requests = ctx.exchanges.length;
  verdict.answers = answersOf(ctx.exchanges);
  verdict.sentFields = [...ctx.sentFields];
  if (config.recordExchanges) verdict.exchanges = ctx.exchanges.map(shownExchange);
  return verdict;
}

/** A progress callback: called after each check with its verdict. */
type OnVerdict = (verdict: Verdict) => void;

/** A new run forgets what an earlier one in this process met: a gone target, rate limits, a spent budget. */
export function startRun(config: RunConfig): void {
  forgetTargetGone();
  forgetRateLimits();
  startRunBudget(config);
}

/**
 * Runs every selected check, area by area in the order of conformance/checks/index.ts and in the
 * order each area lists them (with --shuffle, both orders drawn from the seed, D-222), one at a time (the fuzz checks
 * compare lists before and after, so nothing else may write meanwhile). An error no check caught (an unhandled
 * rejection) is a runner error.
 */
export async function runChecks(
  config: RunConfig,
  onVerdict?: OnVerdict,
): Promise<{ verdicts: Verdict[]; errors: string[] }> {
  const verdicts: Verdict[] = [];
  const errors: string[] = [];
  const onStray = (error: unknown) => errors.push(`unhandled error: ${(error as Error)?.message ?? String(error)}`);
  process.on("unhandledRejection", onStray);
  process.on("uncaughtException", onStray);
  startRun(config);
  try {
    const order = <T>(items: T[]): T[] => (config.shuffle ? shuffled(items, config.seed) : items);
    const runFixtures: Fixtures = new Map();
    for (const [area, checks] of order(Object.entries(areas))) {
      const fixtures: Fixtures = new Map();
      for (const check of order(checks.filter((c) => isSelected(c, config)))) {
        const verdict = await runCheck(check, area, config, fixtures, runFixtures);
        verdicts.push(verdict);
        onVerdict?.(verdict);
      }
    }
  } finally {
    process.off("unhandledRejection", onStray);
    process.off("uncaughtException", onStray);
  }
  return { verdicts, errors };
}
