/**
 * Rate limits and pacing (D-380): an answer 429 or 503 carrying `Retry-After` is waited for and the request sent again,
 * and so is a 429 without it (after a back-off of its own), within a budget per check and one per run; a request still
 * limited past its budget stops the check with no verdict (never a failure). `--max-rps` spaces every request the
 * suite sends. The interface spec states no rate limit, so a target may have one: its 429 says nothing about the
 * request. A quota a create meets (D-242) is no rate limit: it is answered at once.
 */
import { CheckSkip } from "../runner/check.js";
import type { Exchange } from "./http-exchange.js";
import { quotaRefusal } from "./target-full.js";

/** The budgets and the pace of a run, from the configuration. */
interface RetryLimits {
  /** How long one check may wait for Retry-After answers in all (ms). */
  retryBudgetMs: number;
  /** How long the whole run may wait for them (ms). */
  retryTotalMs: number;
  /** Requests a second at most, when given. */
  maxRps?: number;
}

/** What a run met: the answers waited for, by status, and the time waited. */
export interface RateLimitTally {
  /** 429 answers, with Retry-After or without, that were waited for (or that ended a check past its budget). */
  limited: number;
  /** 503 answers with Retry-After, likewise. */
  unavailable: number;
  waitedMs: number;
  /** Time spent pacing to --max-rps (ms). */
  pacedMs: number;
}

/** Every verdict of a check stopped past its budget carries this text (also through fast-check's own error). */
const rateLimitMarker = "no verdict: rate limited";

/** A retry counts at least this long, so a `Retry-After: 0` loop still ends within its budget. */
const leastWaitMs = 100;

/** The first wait for a 429 without Retry-After; each further one a check meets waits twice as long, up to `mostBareWaitMs`. */
const firstBareWaitMs = 1000;
const mostBareWaitMs = 8000;

let tally: RateLimitTally = { limited: 0, unavailable: 0, waitedMs: 0, pacedMs: 0 };
let nextSlotMs = 0;

/** Forgets what an earlier run met (the runner calls it first). */
export function forgetRateLimits(): void {
  tally = { limited: 0, unavailable: 0, waitedMs: 0, pacedMs: 0 };
  nextSlotMs = 0;
}

/** What the run met so far. */
export function rateLimitTally(): RateLimitTally {
  return { ...tally };
}

/** How long an answer asks to be waited for: a 429 or 503 with Retry-After (seconds or an HTTP date), else undefined. */
export function retryAfterMs(exchange: Pick<Exchange, "response">, nowMs = Date.now()): number | undefined {
  const { status, headers } = exchange.response;
  if (status !== 429 && status !== 503) return undefined;
  const value = Object.entries(headers)
    .find(([name]) => name.toLowerCase() === "retry-after")?.[1]
    ?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * How long to wait before sending again: as a 429 or 503 with Retry-After asks, else for a 429 without it a back-off
 * doubling with each answer the check has waited for (`met`), else undefined: the answer is the target's to the request. A
 * 429 that refuses a create for a quota (D-242) is an answer too.
 */
function waitAskedMs(exchange: Exchange, met: number): number | undefined {
  const asked = retryAfterMs(exchange);
  if (asked !== undefined || exchange.response.status !== 429 || quotaRefusal(exchange) !== undefined) return asked;
  return Math.min(mostBareWaitMs, firstBareWaitMs * 2 ** met);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the next request slot of --max-rps (no wait without it). */
async function pace(maxRps: number | undefined): Promise<void> {
  if (!maxRps) return;
  const now = Date.now();
  const slot = Math.max(now, nextSlotMs);
  nextSlotMs = slot + 1000 / maxRps;
  if (slot > now) {
    tally.pacedMs += slot - now;
    await sleep(slot - now);
  }
}

/** What one check waited: answers waited for and the time (its notes say so). */
export interface CheckWaits {
  answers: number;
  waitedMs: number;
}

/**
 * Sends with `send` at the configured pace; a 429 or 503 with Retry-After, or a 429 without it, is waited for and sent
 * again while the check's and the run's budgets allow, then the check has no verdict (CheckSkip). Any other answer is
 * returned.
 */
export async function sendWithinLimits(
  send: () => Promise<Exchange>,
  limits: RetryLimits,
  waits: CheckWaits,
): Promise<Exchange> {
  for (;;) {
    await pace(limits.maxRps);
    const exchange = await send();
    const asked = waitAskedMs(exchange, waits.answers);
    if (asked === undefined) return exchange;
    const status = exchange.response.status;
    if (status === 429) tally.limited += 1;
    else tally.unavailable += 1;
    waits.answers += 1;
    const wait = Math.max(asked, leastWaitMs);
    const checkLeft = limits.retryBudgetMs - waits.waitedMs;
    const runLeft = limits.retryTotalMs - tally.waitedMs;
    if (wait > checkLeft || wait > runLeft)
      throw new CheckSkip(
        `${rateLimitMarker}: ${exchange.request.method} ${exchange.request.url} was answered ${status} ${retryAfterMs(exchange) === undefined ? "without Retry-After (a back-off of" : "with Retry-After"} ${Math.round(asked / 100) / 10} s${retryAfterMs(exchange) === undefined ? ")" : ""} after the check had waited ${Math.round(waits.waitedMs / 100) / 10} s; past ${wait > checkLeft ? `the check's budget (--retry-budget ${limits.retryBudgetMs / 1000} s)` : `the run's budget (--retry-total ${limits.retryTotalMs / 1000} s)`} (D-380)`,
      );
    await sleep(wait);
    waits.waitedMs += wait;
    tally.waitedMs += wait;
  }
}

/** The reason a check had no verdict when what it threw carries a rate-limit stop (also through fast-check's error), else undefined. */
export function rateLimitStopIn(error: unknown): string | undefined {
  const message = error instanceof CheckSkip ? error.reason : error instanceof Error ? error.message : "";
  const at = message.indexOf(rateLimitMarker);
  return at === -1 ? undefined : message.slice(at).split("\n")[0];
}

/** The note a check gets when it waited. */
export function waitNote(waits: CheckWaits): string | undefined {
  return waits.answers === 0
    ? undefined
    : `waited ${Math.round(waits.waitedMs / 100) / 10} s for ${waits.answers} answer${waits.answers === 1 ? "" : "s"} 429/503 and sent again (D-380)`;
}

/** The run's line on rate limits, or undefined when it met none and paced nothing. */
export function rateLimitLine(t: RateLimitTally | undefined): string | undefined {
  if (!t || (t.limited === 0 && t.unavailable === 0 && t.pacedMs === 0)) return undefined;
  const parts = [
    `${t.limited} answer${t.limited === 1 ? "" : "s"} 429 and ${t.unavailable} answer${t.unavailable === 1 ? "" : "s"} 503, ${Math.round(t.waitedMs / 100) / 10} s waited for them in all`,
    ...(t.pacedMs > 0 ? [`paced by --max-rps for ${Math.round(t.pacedMs / 100) / 10} s`] : []),
  ];
  return `Rate limits (D-380): ${parts.join("; ")}`;
}
