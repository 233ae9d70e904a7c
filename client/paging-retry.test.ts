/** `paginate` (D-09), `retry` and `timeoutMs` (D-263) of the generated client against a tiny server on 127.0.0.1. */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, ProblemError, paginate, TimeoutError, unwrap } from "../generated/client.js";

/** How the server answers the next requests: a list of `total` deployments, after `failures` answers of `failStatus`. */
let plan = { total: 0, failures: 0, failStatus: 503, retryAfter: "1" as string | undefined, silent: false };
/** The requests the server saw: method and URL. */
let seen: string[] = [];
let server: Server;
let baseUrl: string;

function answer(request: IncomingMessage, response: ServerResponse): void {
  seen.push(`${request.method} ${request.url}`);
  if (plan.silent) return; // never answers
  if (plan.failures > 0) {
    plan.failures--;
    const headers: Record<string, string> = { "content-type": "application/problem+json" };
    if (plan.retryAfter !== undefined) headers["retry-after"] = plan.retryAfter;
    response.writeHead(plan.failStatus, headers);
    response.end(JSON.stringify({ type: "urn:x", title: "Unavailable", status: plan.failStatus, detail: "later" }));
    return;
  }
  const url = new URL(request.url!, "http://127.0.0.1");
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const resources = Array.from({ length: Math.max(0, Math.min(limit, plan.total - offset)) }, (_, i) => ({
    id: `d-${offset + i}`,
  }));
  response.writeHead(request.method === "POST" ? 201 : 200, { "content-type": "application/json" });
  response.end(JSON.stringify({ resources, offset: offset + resources.length }));
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const reset = (next: Partial<typeof plan>) => {
  plan = { total: 0, failures: 0, failStatus: 503, retryAfter: "1", silent: false, ...next };
  seen = [];
};

describe("paginate", () => {
  const cases = [
    { total: 0, pageSize: 7, requests: 1 },
    { total: 1, pageSize: 1, requests: 2 },
    { total: 7, pageSize: 7, requests: 2 }, // a full last page: the next, empty page ends the walk
    { total: 250, pageSize: 1, requests: 251 },
    { total: 250, pageSize: 7, requests: 36 },
    { total: 250, pageSize: 100, requests: 3 },
  ];
  it.each(cases)("$total deployments by pages of $pageSize: each once, in $requests requests", async (c) => {
    reset({ total: c.total });
    const client = createServiceClient({ baseUrl, apiKey: "k" });
    const ids: string[] = [];
    for await (const deployment of paginate(client, { status: ["READY"] }, { pageSize: c.pageSize }))
      ids.push(deployment.id);
    expect(ids).toEqual(Array.from({ length: c.total }, (_, i) => `d-${i}`));
    expect(seen).toHaveLength(c.requests);
    expect(seen[0]).toContain("status=READY");
  });

  it("starts at the query's offset and stops when the signal aborts", async () => {
    reset({ total: 50 });
    const client = createServiceClient({ baseUrl, apiKey: "k" });
    const controller = new AbortController();
    const ids: string[] = [];
    const walk = async () => {
      for await (const deployment of paginate(client, { offset: 40 }, { pageSize: 3, signal: controller.signal })) {
        ids.push(deployment.id);
        if (ids.length === 4) controller.abort(new Error("enough"));
      }
    };
    await expect(walk()).rejects.toThrow("enough");
    expect(ids).toEqual(["d-40", "d-41", "d-42", "d-43"]);
  });

  it("an error page rejects with the ProblemError", async () => {
    reset({ total: 5, failures: 1, failStatus: 503 });
    const client = createServiceClient({ baseUrl, apiKey: "k" });
    await expect(paginate(client).next()).rejects.toBeInstanceOf(ProblemError);
  });
});

describe("retry", () => {
  const cases = [
    {
      name: "a read answered 503 twice is repeated after Retry-After",
      method: "GET",
      failures: 2,
      status: 503,
      retryAfter: "1",
      attempts: 3,
      want: 200,
      requests: 3,
    },
    {
      name: "429 is repeated the same way",
      method: "GET",
      failures: 1,
      status: 429,
      retryAfter: "0",
      attempts: 2,
      want: 200,
      requests: 2,
    },
    {
      name: "no more than the attempts",
      method: "GET",
      failures: 3,
      status: 503,
      retryAfter: "0",
      attempts: 2,
      want: 503,
      requests: 2,
    },
    {
      name: "a Retry-After beyond maxDelayMs is returned as it is",
      method: "GET",
      failures: 1,
      status: 503,
      retryAfter: "60",
      attempts: 3,
      want: 503,
      requests: 1,
    },
    {
      name: "a 500 is not repeated",
      method: "GET",
      failures: 1,
      status: 500,
      retryAfter: "0",
      attempts: 3,
      want: 500,
      requests: 1,
    },
    {
      name: "a write is never repeated",
      method: "POST",
      failures: 1,
      status: 503,
      retryAfter: "0",
      attempts: 3,
      want: 503,
      requests: 1,
    },
  ];
  it.each(cases)("$name", async (c) => {
    reset({ total: 3, failures: c.failures, failStatus: c.status, retryAfter: c.retryAfter });
    const client = createServiceClient({ baseUrl, apiKey: "k", retry: { attempts: c.attempts, maxDelayMs: 5000 } });
    const { response } =
      c.method === "GET"
        ? await client.GET("/v2/deployments", { params: { query: { limit: 10 } } })
        : await client.POST("/v2/auth/providers", { body: {} as never });
    expect(response.status).toBe(c.want);
    expect(seen).toHaveLength(c.requests);
  });

  it("waits what Retry-After asks: two 503s with Retry-After: 1 take about 2 s", async () => {
    reset({ total: 3, failures: 2, retryAfter: "1" });
    const client = createServiceClient({ baseUrl, apiKey: "k", retry: { attempts: 3 } });
    const started = performance.now();
    const page = await unwrap(client.GET("/v2/deployments", {}));
    expect(page.resources).toHaveLength(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
  });
});

describe("timeoutMs", () => {
  it("a target that never answers ends in a TimeoutError, not a ProblemError", async () => {
    reset({ silent: true });
    const client = createServiceClient({ baseUrl, apiKey: "k", timeoutMs: 200 });
    const started = performance.now();
    const error = await client.GET("/v2/deployments", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(ProblemError);
    expect((error as TimeoutError).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v2\/deployments: no answer within 200 ms$/,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("an answer in time is returned as usual", async () => {
    reset({ total: 1 });
    const client = createServiceClient({ baseUrl, apiKey: "k", timeoutMs: 2000 });
    expect((await unwrap(client.GET("/v2/deployments", {}))).resources).toHaveLength(1);
  });
});
