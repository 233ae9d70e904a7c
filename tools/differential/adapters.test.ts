/**
 * The two adapters of the pipeline cannot drift (D-270): the same requests, sent to the Koa app and to the fetch
 * handler over equal stores, get the same status, the same named headers and the same body, ids and times aside.
 * The requests: the reliability fuzz corpus as raw bytes, the conformance suite's sample request of every operation,
 * a recorded conformance run's requests (conformance-exchanges.json, made by trim-har.ts), and the regressions.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampledOperations, sampleRequest } from "../../conformance/check-kit/operation-samples.js";
import type { CheckContext } from "../../conformance/runner/check.js";
import { demo } from "../../contract/index.js";
import { templateDeployment } from "../harness/http.js";
import { type FuzzContext, fuzzCases, makerCount, renderCase } from "../reliability/fuzz-cases.js";
import { rawRequest } from "../reliability/raw-http.js";
import { type Comparable, comparable } from "./compare.js";
import type { RecordedExchange } from "./recorded-exchange.js";
import { startTwins, type Twins } from "./twins.js";

let twins: Twins;
beforeAll(async () => {
  twins = await startTwins();
});
afterAll(() => twins?.close());

/** A request as fetch sends it. */
interface Sent {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

/** The same request to both adapters: over HTTP to Koa, in-process to the fetch handler. */
async function both(sent: Sent): Promise<{ koa: Comparable; fetch: Comparable }> {
  const init = { method: sent.method, headers: sent.headers, ...(sent.body === undefined ? {} : { body: sent.body }) };
  const koa = await fetch(`${twins.koa.url}${sent.target}`, init);
  const viaFetch = await twins.fetch.handle(new Request(`http://api.test${sent.target}`, init));
  return {
    koa: comparable(koa.status, koa.headers, await koa.text()),
    fetch: comparable(viaFetch.status, viaFetch.headers, await viaFetch.text()),
  };
}

const acme = { "X-Api-Key": demo.acme.apiKey };
const json = { ...acme, "Content-Type": "application/json" };
const keys = { main: demo.acme.apiKey, other: demo.globex.apiKey, literal: "not-a-key-of-this-run" } as const;

describe("the Koa and the fetch adapter answer alike", () => {
  it.each<[string, Sent]>([
    // D-115: a content coding the server does not apply is 415, in every adapter (it was 201 on the fetch handler).
    [
      "a create under Content-Encoding: gzip",
      {
        method: "POST",
        target: "/v2/deployments",
        headers: { ...json, "Content-Encoding": "gzip" },
        body: JSON.stringify(templateDeployment("gz")),
      },
    ],
    [
      "a create with a byte order mark",
      {
        method: "POST",
        target: "/v2/deployments",
        headers: json,
        body: `\uFEFF${JSON.stringify(templateDeployment("bom"))}`,
      },
    ],
    [
      "a create of 2 MiB",
      { method: "POST", target: "/v2/deployments", headers: json, body: JSON.stringify({ name: "x".repeat(2 << 20) }) },
    ],
    [
      "a query with invalid escapes",
      { method: "GET", target: "/v2/deployments?name_contains=%E0%A4%A&limit=+5", headers: acme },
    ],
    ["a repeated limit", { method: "GET", target: "/v2/deployments?limit=1&limit=2", headers: acme }],
    [
      "a path parameter with invalid escapes",
      { method: "GET", target: "/v1/integrations/codehost/%E0%A4%A/repos", headers: acme },
    ],
    ["HEAD of a list", { method: "HEAD", target: "/v2/deployments", headers: acme }],
    ["OPTIONS of a known path", { method: "OPTIONS", target: "/v2/deployments", headers: {} }],
    ["DELETE of a known path", { method: "DELETE", target: "/v2/deployments", headers: acme }],
    ["the health check", { method: "GET", target: "/healthz", headers: {} }],
    ["POST to the health check", { method: "POST", target: "/healthz", headers: {} }],
    [
      "a target of 9,000 bytes",
      { method: "GET", target: `/v2/deployments?name_contains=${"a".repeat(9000)}`, headers: acme },
    ],
  ])("%s", async (_label, sent) => {
    const { koa, fetch } = await both(sent);
    expect(fetch).toEqual(koa);
  });

  // Found by the fuzz corpus: the fetch handler on a port judged the path a URL had resolved, not the path sent.
  it.each(["/v2/deployments/%2e%2e", "/v2/./deployments", "/v2/x/../deployments?limit=1", "/v2//deployments"])(
    "the target %s as sent, raw, to both on their ports",
    async (target) => {
      const [koa, viaFetch] = await Promise.all(
        [twins.koa, twins.fetch].map(async ({ port }) => {
          const bytes = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${demo.acme.apiKey}\r\nConnection: close\r\n\r\n`;
          const outcome = await rawRequest("127.0.0.1", port, Buffer.from(bytes));
          if (outcome.kind === "no-answer") throw new Error(outcome.reason);
          return comparable(outcome.answer.status, outcome.answer.headers, outcome.answer.body.toString("utf8"));
        }),
      );
      expect(viaFetch).toEqual(koa);
      expect(koa?.status).toBe(404);
    },
  );

  it("on the sample request of every operation, created twice (the second a 409 where names are unique)", async () => {
    const ctx = {
      name: (prefix: string) => `diff-${prefix}`,
      config: {
        hosting: "cloud",
        integrationId: demo.acme.plainIntegrationId,
        managedIntegrationId: demo.acme.managedIntegrationId,
      },
    } as unknown as CheckContext;
    for (const round of [1, 2])
      for (const { operation } of sampledOperations) {
        const sample = sampleRequest(ctx, operation, "any");
        const { koa, fetch } = await both({
          method: sample.method,
          target: sample.path,
          headers: sample.json ? json : acme,
          ...(sample.json ? { body: JSON.stringify(sample.json) } : {}),
        });
        expect(fetch, `${operation.id}, round ${round}`).toEqual(koa);
      }
  });

  it("on every request of a recorded conformance run", async () => {
    const recorded = JSON.parse(
      readFileSync(new URL("./conformance-exchanges.json", import.meta.url), "utf8"),
    ) as RecordedExchange[];
    expect(recorded.length).toBeGreaterThan(500);
    for (const [index, exchange] of recorded.entries()) {
      const headers = { ...exchange.headers };
      if (exchange.keyRef !== "none") headers["X-Api-Key"] = keys[exchange.keyRef];
      const sent = { ...exchange, headers };
      const { koa, fetch } = await both(sent);
      expect(fetch, `request ${index}: ${exchange.method} ${exchange.target}`).toEqual(koa);
    }
  }, 240_000);

  it("on the reliability fuzz corpus, sent as raw bytes to both on their ports", async () => {
    const ctx: FuzzContext = {
      ...demo,
      existingDeploymentName: "fz-existing",
      existingProviderId: "fz-existing-provider",
    };
    for (const twin of [twins.koa, twins.fetch]) {
      const created = await fetch(`${twin.url}/v2/deployments`, {
        method: "POST",
        headers: json,
        body: JSON.stringify(templateDeployment(ctx.existingDeploymentName)),
      });
      expect(created.status).toBe(201);
    }
    // Every maker of the corpus several times over, each case to both.
    for (const fuzzCase of fuzzCases(20261121, makerCount * 8, ctx)) {
      const [koa, viaFetch] = await Promise.all(
        [twins.koa, twins.fetch].map(async ({ port }) => {
          const outcome = await rawRequest("127.0.0.1", port, renderCase(fuzzCase, `127.0.0.1:${port}`), {
            head: fuzzCase.method === "HEAD",
            timeoutMs: 10_000,
          });
          if (outcome.kind === "no-answer") return { status: 0, headers: {}, body: outcome.reason };
          const { status, headers, body } = outcome.answer;
          return comparable(status, headers, body.toString("utf8"));
        }),
      );
      expect(viaFetch, `fuzz case ${fuzzCase.index} (${fuzzCase.category}: ${fuzzCase.variant})`).toEqual(koa);
    }
  }, 120_000);
});
