/** Tests of the HAR file: HAR 1.2 shape, entries in sending order with their check, redacted values kept redacted. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { REDACTED } from "../target/redact.js";
import { toHar } from "./har.js";

const post: Exchange = {
  request: {
    method: "POST",
    url: "http://h/v2/auth/providers?x=1&y=a%20b",
    headers: { "X-Api-Key": REDACTED, "Content-Type": "application/json" },
    body: `{"provider_id":"p","client_secret":"${REDACTED}"}`,
    keyRef: "main",
  },
  response: {
    status: 409,
    headers: { "content-type": "application/problem+json" },
    body: '{"status":409}',
  },
  json: { status: 409 },
  startedAt: "2026-11-23T02:00:01.000Z",
  durationMs: 12,
  operation: "createOAuthProvider",
};
const get: Exchange = {
  request: { method: "GET", url: "http://h/nowhere", headers: { Accept: "application/json" } },
  response: { status: 404, headers: {}, body: "" },
  json: undefined,
  startedAt: "2026-11-23T02:00:00.500Z",
  durationMs: 3,
};

describe("toHar", () => {
  const har = toHar(
    [
      { check: "ERR-005", exchange: post },
      { check: "ERR-001", exchange: get },
    ],
    { runId: "abc123", startedAt: "2026-11-23T02:00:00.000Z" },
  );
  const [first, second] = har.log.entries;

  it("is a HAR 1.2 log with a creator", () => {
    expect(har.log.version).toBe("1.2");
    expect(har.log.creator.name).toBe("deployment-conformance");
    expect(har.log.entries).toHaveLength(2);
  });
  it("orders entries by the time they were sent and names the check", () => {
    expect([first!._check, second!._check]).toEqual(["ERR-001", "ERR-005"]);
    expect(second!.comment).toBe("check ERR-005 · createOAuthProvider");
  });
  it("carries request and response as HAR fields", () => {
    expect(second).toMatchObject({
      startedDateTime: "2026-11-23T02:00:01.000Z",
      time: 12,
      request: {
        method: "POST",
        url: "http://h/v2/auth/providers?x=1&y=a%20b",
        httpVersion: "HTTP/1.1",
        headers: [
          { name: "X-Api-Key", value: REDACTED },
          { name: "Content-Type", value: "application/json" },
        ],
        queryString: [
          { name: "x", value: "1" },
          { name: "y", value: "a b" },
        ],
        postData: { mimeType: "application/json", text: `{"provider_id":"p","client_secret":"${REDACTED}"}` },
      },
      response: {
        status: 409,
        headers: [{ name: "content-type", value: "application/problem+json" }],
        content: { mimeType: "application/problem+json", text: '{"status":409}', size: 14 },
      },
      timings: { send: 0, wait: 12, receive: 0 },
    });
    expect(first!.request).not.toHaveProperty("postData");
  });
  it("has every field HAR 1.2 requires of an entry", () => {
    for (const entry of har.log.entries) {
      for (const key of ["startedDateTime", "time", "request", "response", "cache", "timings"])
        expect(entry).toHaveProperty(key);
      for (const key of [
        "method",
        "url",
        "httpVersion",
        "cookies",
        "headers",
        "queryString",
        "headersSize",
        "bodySize",
      ])
        expect(entry.request).toHaveProperty(key);
      for (const key of ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL"])
        expect(entry.response).toHaveProperty(key);
    }
  });
});
