/** The walkthrough runs unchanged against the mock and the reference server: only the base URL and key differ. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../contract/index.js";
import { titledExamples } from "../generator/example-titles.js";
import { type RunningMock, startMock } from "../mock/src/mock.js";
import { type ChildServer, startChildServer } from "../server/testing/child-server.js";
import { runWalkthrough } from "./walkthrough.js";

const examples = titledExamples();

/** What the static mock serves for an operation without a Prefer header. */
function defaultExample(operationId: string): unknown {
  return examples.find((example) => example.operationId === operationId && example.isDefault)!.value;
}

describe("walkthrough against the mock (static examples)", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("completes every step with the examples of the contract", async () => {
    const pageSize = 2;
    const result = await runWalkthrough({
      baseUrl: mock.url,
      apiKey: "any-key-the-mock-accepts",
      integrationId: demo.acme.plainIntegrationId,
      pageSize,
    });
    // The static mock answers every call with the default (first) example of its operation, whatever was sent.
    const providers = defaultExample("listOAuthProviders") as unknown[];
    const repositories = defaultExample("listCodehostRepositories") as Array<{ url: string }>;
    const page = defaultExample("listDeployments") as { resources: Array<{ id: string }>; offset: number };
    // A default page as long as the limit is fetched twice (the second answer repeats it, so the
    // offset stops advancing): the walk ends, and reports the repeated ids.
    const full = page.resources.length >= pageSize && page.offset > 0;
    expect({
      providersListed: result.providersListed,
      repositories: result.repositories,
      pages: result.pages,
      duplicateIds: result.duplicateIds,
    }).toEqual({
      providersListed: providers.length,
      repositories: repositories.length,
      pages: full ? 2 : 1,
      duplicateIds: full ? page.resources.map((resource) => resource.id) : [],
    });
    expect(result.deploymentRequest.source_config.repo_url).toBe(repositories[0]!.url);
  });
});

describe("walkthrough against the reference server", () => {
  let server: ChildServer;
  beforeAll(async () => {
    server = await startChildServer({ env: { READY_AFTER_MS: "200" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("creates a provider and a deployment from a repository record, and finds the deployment by walking every page", async () => {
    const result = await runWalkthrough({
      baseUrl: server.url,
      apiKey: demo.acme.apiKey,
      integrationId: demo.acme.plainIntegrationId,
      pageSize: 2,
    });
    expect(result.provider.provider_id).toBe(result.deployment.name);
    expect(result.deployment).toMatchObject({ name: result.deploymentRequest.name, source: "codehost" });
    expect(result.deploymentRequest).toMatchObject({
      source_config: { repo_url: `https://codehost.example/${result.repository.owner}/${result.repository.name}` },
      source_revision_config: { repo_ref: result.repository.default_branch },
    });
    expect(result.createdDeploymentListed).toBe(true);
    expect(result.duplicateIds).toEqual([]);
  });

  it("runs again against the same server without a name conflict", async () => {
    const first = await runWalkthrough({
      baseUrl: server.url,
      apiKey: demo.acme.apiKey,
      integrationId: demo.acme.plainIntegrationId,
      pageSize: 2,
    });
    const second = await runWalkthrough({
      baseUrl: server.url,
      apiKey: demo.acme.apiKey,
      integrationId: demo.acme.plainIntegrationId,
      pageSize: 2,
    });
    expect(second.deployment.name).not.toBe(first.deployment.name);
    // Walking pages of two yields at least the two new deployments, each once.
    expect(second.deploymentsWalked).toBeGreaterThanOrEqual(first.deploymentsWalked + 1);
    expect(second.pages).toBeGreaterThanOrEqual(2);
    expect(second.duplicateIds).toEqual([]);
  });
});

describe("walkthrough against the stateful mock (sandbox, D-79)", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, stateful: true, readyAfterMs: 200 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("runs unchanged with any key, and its create→list step shows the new deployment", async () => {
    const result = await runWalkthrough({
      baseUrl: mock.url,
      apiKey: "a-client-team-key",
      integrationId: demo.acme.plainIntegrationId,
      pageSize: 2,
    });
    expect(result.deployment).toMatchObject({ name: result.deploymentRequest.name, source: "codehost" });
    expect(result.createdDeploymentListed).toBe(true);
    expect(result.duplicateIds).toEqual([]);
  });

  it("keeps concurrent test sessions apart", async () => {
    const call = (session: string, method: string, body?: unknown) =>
      fetch(`${mock.url}/v2/deployments${method === "GET" ? "?limit=100" : ""}`, {
        method,
        headers: { "X-Api-Key": "shared-key", "X-Mock-Session": session, "Content-Type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((response) => response.json() as Promise<{ id: string; resources: Array<{ id: string }> }>);
    const create = (name: string) => ({
      name,
      source: "internal_template",
      source_config: {},
      source_revision_config: {},
      secrets: [],
    });
    const [a, b] = await Promise.all([
      call("session-a", "POST", create("only-a")),
      call("session-b", "POST", create("only-b")),
    ]);
    const [listedA, listedB] = await Promise.all([call("session-a", "GET"), call("session-b", "GET")]);
    expect(listedA.resources.map((deployment) => deployment.id)).toContain(a.id);
    expect(listedA.resources.map((deployment) => deployment.id)).not.toContain(b.id);
    expect(listedB.resources.map((deployment) => deployment.id)).toContain(b.id);
    expect(listedB.resources.map((deployment) => deployment.id)).not.toContain(a.id);
  });
});
