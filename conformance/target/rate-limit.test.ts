/** Tests of rate limits (D-380): which answers ask for a wait, the retry within budgets, and the run's line. */
import { describe, expect, it } from "vitest";
import { CheckSkip } from "../runner/check.js";
import type { Exchange } from "./http-exchange.js";
import {
  forgetRateLimits,
  rateLimitLine,
  rateLimitStopIn,
  rateLimitTally,
  retryAfterMs,
  sendWithinLimits,
  waitNote,
} from "./rate-limit.js";

const answer = (
  status: number,
  headers: Record<string, string> = {},
  json: unknown = {},
  method = "GET",
): Exchange => ({
  request: { method, url: "http://h/v2/deployments", headers: {} },
  response: { status, headers, body: JSON.stringify(json) },
  json,
  durationMs: 1,
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  const cases: { name: string; given: Exchange; want: number | undefined }[] = [
    { name: "429 with seconds", given: answer(429, { "retry-after": "1" }), want: 1000 },
    { name: "503 with seconds", given: answer(503, { "Retry-After": " 2 " }), want: 2000 },
    {
      name: "429 with an HTTP date",
      given: answer(429, { "retry-after": "Fri, 27 Nov 2026 12:00:03 GMT" }),
      want: 3000,
    },
    {
      name: "a date already past is no wait",
      given: answer(429, { "retry-after": "Fri, 27 Nov 2026 11:00:00 GMT" }),
      want: 0,
    },
    { name: "429 without Retry-After is the server's answer", given: answer(429), want: undefined },
    {
      name: "a malformed Retry-After is the server's answer",
      given: answer(429, { "retry-after": "soon" }),
      want: undefined,
    },
    { name: "a 500 is never waited for", given: answer(500, { "retry-after": "1" }), want: undefined },
    { name: "a 200 is never waited for", given: answer(200, { "retry-after": "1" }), want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(retryAfterMs(c.given, now)).toBe(c.want));
});

describe("sendWithinLimits", () => {
  const limits = { retryBudgetMs: 1000, retryTotalMs: 10_000 };
  it("waits for a 429 with Retry-After, sends again and counts it", async () => {
    forgetRateLimits();
    const answers = [answer(429, { "retry-after": "0" }), answer(503, { "retry-after": "0" }), answer(200)];
    const waits = { answers: 0, waitedMs: 0 };
    const got = await sendWithinLimits(async () => answers.shift()!, limits, waits);
    expect(got.response.status).toBe(200);
    expect(waits.answers).toBe(2);
    expect(rateLimitTally()).toMatchObject({ limited: 1, unavailable: 1 });
    expect(waitNote(waits)).toMatch(/for 2 answers 429\/503/);
  });
  it("waits for a 429 without Retry-After after a back-off of a second, and sends again", async () => {
    forgetRateLimits();
    const answers = [answer(429), answer(200)];
    const waits = { answers: 0, waitedMs: 0 };
    const got = await sendWithinLimits(async () => answers.shift()!, limits, waits);
    expect(got.response.status).toBe(200);
    expect(waits).toEqual({ answers: 1, waitedMs: 1000 });
  });
  it("a 429 without Retry-After doubles its back-off until the budget ends the check with no verdict", async () => {
    forgetRateLimits();
    const waits = { answers: 0, waitedMs: 0 };
    const error = await sendWithinLimits(async () => answer(429), limits, waits).catch((e: unknown) => e);
    expect(rateLimitStopIn(error)).toMatch(/without Retry-After \(a back-off of 2 s\)/);
    expect(waits.waitedMs).toBe(1000);
  });
  it("returns a create's 429 that names a quota as the answer (D-242), and a 503 without Retry-After", async () => {
    forgetRateLimits();
    const quota = answer(429, {}, { title: "Too many providers", detail: "at most 500 providers" }, "POST");
    for (const given of [quota, answer(503)]) {
      const got = await sendWithinLimits(async () => given, limits, { answers: 0, waitedMs: 0 });
      expect(got).toBe(given);
    }
  });
  it("past the check's budget the check has no verdict, never a failure", async () => {
    forgetRateLimits();
    const waits = { answers: 0, waitedMs: 0 };
    const sent = sendWithinLimits(async () => answer(429, { "retry-after": "0" }), limits, waits);
    const error = await sent.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckSkip);
    expect(rateLimitStopIn(error)).toMatch(/^no verdict: rate limited: .*--retry-budget 1 s/);
    expect(waits.waitedMs).toBeLessThanOrEqual(1000);
  });
  it("a Retry-After longer than the budget is not waited for", async () => {
    forgetRateLimits();
    const error = await sendWithinLimits(async () => answer(429, { "retry-after": "60" }), limits, {
      answers: 0,
      waitedMs: 0,
    }).catch((e: unknown) => e);
    expect(rateLimitStopIn(error)).toMatch(/Retry-After 60 s/);
    expect(rateLimitTally().waitedMs).toBe(0);
  });
});

describe("rateLimitLine", () => {
  const cases = [
    { name: "nothing met", given: { limited: 0, unavailable: 0, waitedMs: 0, pacedMs: 0 }, want: undefined },
    {
      name: "429s waited for",
      given: { limited: 3, unavailable: 0, waitedMs: 2500, pacedMs: 0 },
      want: "Rate limits (D-380): 3 answers 429 and 0 answers 503, 2.5 s waited for them in all",
    },
  ];
  for (const c of cases) it(c.name, () => expect(rateLimitLine(c.given)).toBe(c.want));
});
