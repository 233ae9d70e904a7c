/** The contract proxy reports every request and response that breaks the contract, and nothing else. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { runWalkthrough } from "../../examples/walkthrough.js";
import { type ChildServer, startChildServer } from "../../server/testing/child-server.js";
import { type RunningMock, startMock } from "./mock.js";
import { type ContractProxy, startContractProxy } from "./mock-proxy.js";
import { SeedRecorder } from "./seed-recorder.js";

const validProvider = {
  id: "9a1f0c52-4c1e-4f0e-9d59-3d2f6f7d8e01",
  organization_id: demo.acme.organizationId,
  provider_id: "acme-slack",
  name: "Acme Slack",
  client_id: "1234567890.0987654321",
  auth_url: "https://slack.com/oauth/v2/authorize",
  token_url: "https://slack.com/api/oauth.v2.access",
  uses_pkce: true,
  code_challenge_method: "S256",
  created_at: "2026-11-02T09:15:00Z",
  updated_at: "2026-11-02T09:15:00Z",
};

/** What a deliberately broken implementation answers, per path. */
const upstreamAnswers: Record<string, { status: number; contentType: string; body: string }> = {
  "/v2/auth/providers": { status: 200, contentType: "application/json", body: JSON.stringify([validProvider]) },
  "/v2/deployments": {
    status: 200,
    contentType: "application/json",
    body: JSON.stringify({ resources: [], offset: -1 }),
  },
  [`/v1/integrations/codehost/${demo.acme.plainIntegrationId}/repos`]: {
    status: 200,
    contentType: "text/plain",
    body: "acme/support-agent",
  },
  [`/v1/integrations/forge/codehost/${demo.acme.plainIntegrationId}/repos`]: {
    status: 418,
    contentType: "application/json",
    body: "[]",
  },
};

const cases: Array<{ name: string; path: string; want: { status: number; request: string[]; response: string[] } }> = [
  { name: "a conforming answer", path: "/v2/auth/providers", want: { status: 200, request: [], response: [] } },
  {
    name: "an offset below its minimum",
    path: "/v2/deployments",
    want: { status: 200, request: [], response: ["body.offset minimum"] },
  },
  {
    name: "a request below the limit range, forwarded anyway",
    path: "/v2/deployments?limit=0",
    want: { status: 200, request: ["query.limit minimum"], response: ["body.offset minimum"] },
  },
  {
    name: "a text answer where JSON is documented",
    path: `/v1/integrations/codehost/${demo.acme.plainIntegrationId}/repos`,
    want: { status: 200, request: [], response: [" -", "body type"] },
  },
  {
    name: "an undocumented status",
    path: `/v1/integrations/forge/codehost/${demo.acme.plainIntegrationId}/repos`,
    want: { status: 418, request: [], response: [" -"] },
  },
];

describe("npm run mock:proxy in front of a broken implementation", () => {
  let upstream: Server;
  let proxy: ContractProxy;
  beforeAll(async () => {
    upstream = createServer((request, response) => {
      const answer = upstreamAnswers[new URL(request.url ?? "/", "http://upstream").pathname];
      response.writeHead(answer?.status ?? 404, { "content-type": answer?.contentType ?? "text/plain" });
      response.end(answer?.body ?? "");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    proxy = await startContractProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))("reports %s", async (_name, entry) => {
    const before = proxy.report.violating.length;
    const response = await fetch(`${proxy.url}${entry.path}`, { headers: { "X-Api-Key": "k" } });
    await response.arrayBuffer();
    const recorded = proxy.report.violating.slice(before);
    const rules = (side: "request" | "response") =>
      recorded
        .flatMap((exchange) => exchange[side])
        // Request locations come without Prism's "request" prefix, response ones keep "response".
        .map(
          (violation) => `${violation.location.slice(side === "response" ? 1 : 0).join(".")} ${violation.code ?? "-"}`,
        )
        .sort();
    expect({ status: response.status, request: rules("request"), response: rules("response") }).toEqual(entry.want);
  });

  it("summarises the exchanges by rule", () => {
    const summary = proxy.report.summary();
    expect(summary.exchanges).toBeGreaterThanOrEqual(cases.length);
    expect(summary.responsesBreakingContract).toBe(cases.filter((entry) => entry.want.response.length > 0).length);
    expect(summary.rules.find((rule) => rule.side === "response" && rule.rule === "body.offset minimum")?.count).toBe(
      2,
    );
  });
});

describe("npm run mock:proxy --record in front of an implementation that leaks secrets (D-398)", () => {
  const key = "dk_leaky_client_key_0042";
  let upstream: Server;
  let proxy: ContractProxy;
  const recorder = new SeedRecorder();
  beforeAll(async () => {
    upstream = createServer((request, response) => {
      // the provider list shows its client secret, and the key comes back in a header and a name
      const echoed = String(request.headers["x-api-key"]);
      response.writeHead(200, { "content-type": "application/json", "x-echo": echoed });
      response.end(
        JSON.stringify([{ ...validProvider, name: `for ${echoed}`, client_secret: "leaked-upstream-secret" }]),
      );
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    proxy = await startContractProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
      recorder,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  });

  it("counts the leaks as contract breaches and records neither the secret nor the key", async () => {
    const response = await fetch(`${proxy.url}/v2/auth/providers`, { headers: { "X-Api-Key": key } });
    await response.arrayBuffer();
    const leaks = proxy.report.violating
      .flatMap((exchange) => exchange.response)
      .filter((violation) => violation.code === "secret-leak")
      .map((violation) => violation.location.slice(1).join("."));
    expect(leaks.sort()).toEqual(["body.0.client_secret", "body.0.name", "header.x-echo"]);
    expect(proxy.report.summary().responsesBreakingContract).toBe(1);
    const recorded = JSON.stringify(recorder.state());
    expect(recorded).not.toContain("leaked-upstream-secret");
    expect(recorded).not.toContain(key);
    expect(recorder.state().oauth_providers).toHaveLength(1);
  });
});

describe("npm run mock:proxy in front of the mock", () => {
  let mock: RunningMock;
  let proxy: ContractProxy;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    proxy = await startContractProxy({ upstream: mock.url, port: 0 });
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it("reports no violation for the walkthrough: the mock's examples conform", async () => {
    await runWalkthrough({ baseUrl: proxy.url, apiKey: "k", integrationId: demo.acme.plainIntegrationId });
    expect(proxy.report.violating).toEqual([]);
    expect(proxy.report.summary().exchanges).toBeGreaterThanOrEqual(5);
  });
});

describe("npm run mock:proxy in front of the reference server", () => {
  let server: ChildServer;
  let proxy: ContractProxy;
  beforeAll(async () => {
    server = await startChildServer({ env: { READY_AFTER_MS: "200" } });
    proxy = await startContractProxy({ upstream: server.url, port: 0 });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it("reports no response violation for the walkthrough and for rejected requests", async () => {
    await runWalkthrough({ baseUrl: proxy.url, apiKey: demo.acme.apiKey, integrationId: demo.acme.plainIntegrationId });
    for (const path of [
      "/v2/deployments?limit=0",
      "/v2/deployments?status=BOGUS",
      "/v1/integrations/codehost/00000000-0000-4000-8000-000000000000/repos",
    ]) {
      await (await fetch(`${proxy.url}${path}`, { headers: { "X-Api-Key": demo.acme.apiKey } })).arrayBuffer();
    }
    await (await fetch(`${proxy.url}/v2/deployments`, { headers: { "X-Api-Key": "dk_unknown" } })).arrayBuffer();
    const summary = proxy.report.summary();
    expect(summary.rules.filter((rule) => rule.side === "response")).toEqual([]);
    expect(summary.requestsBreakingContract).toBe(2);
  });
});
