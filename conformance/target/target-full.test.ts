/** Tests of a full target (D-242): which refusals name a quota or limit, and the lines said once instead of failures. */
import { describe, expect, it } from "vitest";
import { CheckFailure, CheckSkip } from "../runner/check.js";
import type { Verdict } from "../runner/verdict.js";
import { aVerdict } from "../testing/verdicts.js";
import type { Exchange } from "./http-exchange.js";
import { fullStopIn, quotaRefusal, targetFullReport, throwIfFull } from "./target-full.js";

const answer = (method: string, status: number, json: unknown): Exchange => ({
  request: { method, url: "http://h/v2/auth/providers", headers: {} },
  response: { status, headers: {}, body: JSON.stringify(json) },
  json,
  durationMs: 1,
});
const cap = "This organization already has 500 OAuth providers, the most it may have; no provider was created.";

describe("quotaRefusal", () => {
  const cases: { name: string; given: Exchange; want: string | undefined }[] = [
    { name: "the reference server's cap (D-112)", given: answer("POST", 409, { detail: cap }), want: `409: ${cap}` },
    {
      name: "a 429 naming a quota",
      given: answer("POST", 429, { title: "Quota exceeded" }),
      want: "429: Quota exceeded",
    },
    {
      name: "a limit named only in the type",
      given: answer("POST", 409, { type: "urn:x:problem:limit-reached" }),
      want: "409: urn:x:problem:limit-reached",
    },
    {
      name: "a duplicate is no quota",
      given: answer("POST", 409, { detail: "provider_id 'x' already exists" }),
      want: undefined,
    },
    { name: "a 422 is no quota", given: answer("POST", 422, { detail: "at most 255 characters" }), want: undefined },
    { name: "a read is never a create", given: answer("GET", 429, { title: "Too Many Requests" }), want: undefined },
    { name: "a body that is no problem", given: answer("POST", 409, "limit"), want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(quotaRefusal(c.given)).toBe(c.want));
});

describe("throwIfFull and fullStopIn", () => {
  it("stops the check as not run, also when fast-check wraps the stop in its own failure", () => {
    let thrown: unknown;
    try {
      throwIfFull(answer("POST", 409, { detail: cap }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CheckSkip);
    const reason = `not run: the target is full (409: ${cap})`;
    expect(fullStopIn(thrown)).toBe(reason);
    expect(fullStopIn(new CheckFailure(`Property failed by returning false\nGot error: ${reason}`))).toBe(reason);
    expect(fullStopIn(new CheckFailure("limit=0 accepted"))).toBeUndefined();
    expect(() => throwIfFull(answer("POST", 201, {}))).not.toThrow();
  });
});

describe("targetFullReport", () => {
  const verdict = (id: string, status: Verdict["status"], skipReason?: string): Verdict =>
    aVerdict({ id, status, ...(skipReason ? { skipReason } : {}) });
  const cases: { name: string; given: Verdict[]; want: RegExp[] | undefined }[] = [
    {
      name: "nothing refused",
      given: [verdict("A-1", "pass"), verdict("A-2", "skip", "needs --other-api-key")],
      want: undefined,
    },
    {
      name: "said once, naming the refusal and the checks not run",
      given: [
        verdict("P-1", "skip", `not run: the target is full (409: ${cap})`),
        verdict("P-2", "skip", `not run: the target is full (409: ${cap})`),
        verdict("D-1", "pass"),
      ],
      want: [
        /^conformance: the organization is full: use a fresh one .*\(409: This organization already has 500/,
        /^Not run for it \(2, not failures\): P-1, P-2\. Exit 2/,
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const lines = targetFullReport({ verdicts: c.given });
      if (c.want === undefined) expect(lines).toBeUndefined();
      else for (const [i, want] of c.want.entries()) expect(lines?.[i]).toMatch(want);
    });
});
