/** A client unit test with no server and no native module: the typed client against the stateful MSW handlers (D-172), where a create is in the next list. */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { createServiceClient, type ServiceClient, unwrap } from "../../generated/client.js";
import { contractHandlers } from "./msw-handlers.js";

const baseUrl = "http://stateful.test";
const instantUrl = "http://instant.test";
const cappedUrl = "http://capped.test/api";
// Provisioning never ends in this test's time on the first; at once on the second (no timed assertions).
const handlers = contractHandlers({ baseUrl, stateful: true, readyAfterMs: 3_600_000 });
const instant = contractHandlers({ baseUrl: instantUrl, stateful: true, readyAfterMs: 0 });
const capped = contractHandlers({ baseUrl: cappedUrl, stateful: true, maxDeploymentsPerSession: 4, maxSessions: 2 });
const boundedUrl = "http://bounded.test";
const bounded = contractHandlers({ baseUrl: boundedUrl, stateful: true, timeoutHoldMs: 50 });
const mock = setupServer(...handlers, ...instant, ...capped, ...bounded);
let client: ServiceClient;
beforeAll(() => {
  mock.listen({ onUnhandledRequest: "error" });
  // After listen: openapi-fetch keeps the fetch it finds when the client is created, and MSW replaces it.
  client = createServiceClient({ baseUrl, apiKey: "my-front-end" });
});
afterEach(() => handlers.reset());
afterAll(() => mock.close());

const container = (name: string) => ({
  name,
  source: "internal_container" as const,
  source_config: {},
  source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
  secrets: [{ name: "TOKEN", value: "s3cret" }],
});

/** A raw call through MSW, for the headers the typed client does not send. */
async function call(url: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe("typed client against the stateful MSW handlers", () => {
  it("finds a created deployment in the next list, its secret masked", async () => {
    const created = await unwrap(client.POST("/v2/deployments", { body: container("front-end-agent") }));
    expect(created).toMatchObject({ name: "front-end-agent", status: "AWAITING_DATABASE" });
    expect(created.secrets).toEqual([{ name: "TOKEN", value: "********" }]);
    const page = await unwrap(client.GET("/v2/deployments", { params: { query: { limit: 100 } } }));
    expect(page.resources[0]?.id).toBe(created.id);
    // The session is seeded with the titled create examples, so the list is never empty (D-79).
    expect(page.resources.length).toBeGreaterThan(1);
  });

  it("answers the sandbox's problems: 409 on a taken name, 400 on a source rule, 422 on the schema, 401 without a key", async () => {
    await unwrap(client.POST("/v2/deployments", { body: container("taken") }));
    const cases = [
      { body: container("taken"), want: { status: 409, type: "urn:deployment-service:problem:conflict" } },
      {
        body: { ...container("broken"), source: "codehost" },
        want: { status: 400, type: "urn:deployment-service:problem:source-rule" },
      },
      {
        body: { ...container("1-digit-first") },
        want: { status: 422, type: "urn:deployment-service:problem:validation" },
      },
    ];
    for (const { body, want } of cases) {
      const { error, response } = await client.POST("/v2/deployments", { body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(want.status);
      expect(error).toMatchObject(want);
    }
    expect((await createServiceClient({ baseUrl, apiKey: " " }).GET("/v2/deployments")).response.status).toBe(401);
  });

  it("keeps X-Mock-Session sessions apart and keys apart within one; reset() starts a session over", async () => {
    const list = (session: string, key = "k") =>
      call(`${baseUrl}/v2/deployments?name_contains=isolated`, {
        headers: { "X-Api-Key": key, "X-Mock-Session": session },
      });
    const created = await call(`${baseUrl}/v2/deployments`, {
      method: "POST",
      headers: { "X-Api-Key": "k", "X-Mock-Session": "a", "Content-Type": "application/json" },
      body: JSON.stringify(container("isolated")),
    });
    expect(created.status).toBe(201);
    expect((await list("a")).body.resources).toHaveLength(1);
    expect((await list("b")).body.resources).toHaveLength(0);
    expect((await list("a", "another-key")).body.resources).toHaveLength(0);
    handlers.reset("a");
    expect((await list("a")).body.resources).toHaveLength(0);
  });

  it("serves the demo organizations and keys as themselves", async () => {
    const acme = createServiceClient({ baseUrl, apiKey: demo.acme.apiKey });
    const providers = await unwrap(acme.GET("/v2/auth/providers"));
    expect(Array.isArray(providers)).toBe(true);
    const { response } = await createServiceClient({ baseUrl, apiKey: demo.globex.apiKey }).GET(
      "/v1/integrations/codehost/{integration_id}/repos",
      { params: { path: { integration_id: demo.acme.plainIntegrationId } } },
    );
    expect(response.status).toBe(404);
  });

  it("shows READY once provisioning has ended", async () => {
    const fast = createServiceClient({ baseUrl: instantUrl, apiKey: "k" });
    const created = await unwrap(fast.POST("/v2/deployments", { body: container("ready-now") }));
    const page = await unwrap(fast.GET("/v2/deployments", { params: { query: { deployment_ids: [created.id] } } }));
    expect(page.resources[0]).toMatchObject({ status: "READY", active_revision_id: created.latest_revision_id });
  });

  it("answers Prefer: code= from the titled examples and the fault modes of D-80", async () => {
    const headers = { "X-Api-Key": "k", "Content-Type": "application/json" };
    const cases = [
      { prefer: "code=409", want: 409, contentType: "application/problem+json" },
      { prefer: "fault=503", want: 503, contentType: "application/problem+json" },
      { prefer: "fault=429", want: 429, contentType: "application/problem+json" },
      { prefer: "fault=nonsense", want: 400, contentType: "application/problem+json" },
    ];
    for (const { prefer, want, contentType } of cases) {
      const answer = await call(`${baseUrl}/v2/deployments`, {
        method: "POST",
        headers: { ...headers, Prefer: prefer },
        body: JSON.stringify(container("prefer")),
      });
      expect(answer.status, prefer).toBe(want);
      expect(answer.headers.get("content-type"), prefer).toBe(contentType);
    }
    await expect(
      fetch(`${baseUrl}/v2/deployments`, { headers: { ...headers, Prefer: "fault=reset" } }),
    ).rejects.toThrow();
    // fault=timeout is held for a bounded time, then fails as a network error (D-272).
    await expect(
      fetch(`${boundedUrl}/v2/deployments`, { headers: { ...headers, Prefer: "fault=timeout" } }),
    ).rejects.toThrow();
    // None of them stored anything.
    expect((await call(`${baseUrl}/v2/deployments?name_contains=prefer`, { headers })).body.resources).toHaveLength(0);
  });

  it("caps a session's deployments and the number of sessions (a prefix in the base URL is stripped)", async () => {
    const session = (id: string) => ({ "X-Api-Key": "k", "X-Mock-Session": id, "Content-Type": "application/json" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call(`${cappedUrl}/v2/deployments`, {
        method: "POST",
        headers: session("full"),
        body: JSON.stringify(container(`capped-${i}`)),
      });
      statuses.push(answer.status);
    }
    // The seeds count: the session fills up before the sixth create and then answers 503.
    expect(statuses.at(-1)).toBe(503);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    for (const id of ["s1", "s2", "s3"]) await call(`${cappedUrl}/v2/deployments`, { headers: session(id) });
    expect(capped.sessionCount()).toBe(2);
  });
});

describe("state a test controls (D-320, D-321)", () => {
  it("snapshot(), restore() and clock.advance() act on the default session", async () => {
    const deployments = async () =>
      (await unwrap(client.GET("/v2/deployments", { params: { query: { limit: 100 } } }))).resources;
    const fresh = await unwrap(client.POST("/v2/deployments", { body: container("before-snapshot") }));
    const snapshot = await handlers.snapshot();
    const before = await deployments();
    expect(snapshot.deployments.map((d) => d.id)).toEqual(before.map((d) => d.id));
    for (const name of ["after-1", "after-2"]) await unwrap(client.POST("/v2/deployments", { body: container(name) }));
    await handlers.restore(snapshot);
    expect(await deployments()).toEqual(before);
    expect(before.find((d) => d.id === fresh.id)?.status).toBe("AWAITING_DATABASE");
    await handlers.clock.advance(3_600_000);
    expect((await deployments()).find((d) => d.id === fresh.id)?.status).toBe("READY");
  });

  it("a seed is where every new session starts", async () => {
    const seededUrl = "http://seeded.test";
    const snapshot = await handlers.snapshot().catch(() => undefined);
    expect(snapshot).toBeUndefined();
    await unwrap(client.POST("/v2/deployments", { body: container("to-seed-with") }));
    const seeded = contractHandlers({ baseUrl: seededUrl, stateful: true, seed: await handlers.snapshot() });
    mock.use(...seeded);
    const other = createServiceClient({ baseUrl: seededUrl, apiKey: "someone-else" });
    const page = await unwrap(other.GET("/v2/deployments", { params: { query: { limit: 100 } } }));
    expect(page.resources.map((d) => d.name)).toEqual((await handlers.snapshot()).deployments.map((d) => d.name));
  });
});
