/** Tests of operations 3 and 4 over HTTP: repositories by owner then name, 404 for unknown, other-tenant and other-kind integrations, 422 for a malformed id. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ids } from "../testing/fixtures.js";
import { globexKey, startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const plainPath = (id: string) => `/v1/integrations/codehost/${id}/repos`;
const managedPath = (id: string) => `/v1/integrations/forge/codehost/${id}/repos`;

describe("listing repositories", () => {
  it("operation 3 lists the plain integration's repositories by owner then name", async () => {
    const response = await server.request("GET", plainPath(ids.plainIntegration));
    expect(response.status).toBe(200);
    expect(response.body.map((r: { name: string }) => r.name)).toEqual(["docs-bot", "support-agent", "triage-graph"]);
    expect(response.body[1]).toEqual({
      host_integration_id: ids.plainIntegration,
      id: 681245,
      name: "support-agent",
      owner: "acme",
      url: "https://codehost.example/acme/support-agent",
      default_branch: "main",
    });
  });

  it("operation 4 lists the managed integration's repositories", async () => {
    const response = await server.request("GET", managedPath(ids.managedIntegration));
    expect(response.status).toBe(200);
    expect(response.body.map((r: { name: string; default_branch: string }) => `${r.name}@${r.default_branch}`)).toEqual(
      ["billing-graph@main", "onboarding-flow@develop"],
    );
  });

  it("Globex sees its own integration", async () => {
    const response = await server.request("GET", plainPath(ids.globexIntegration), { key: globexKey });
    expect(response.body.map((r: { owner: string; name: string }) => `${r.owner}/${r.name}`)).toEqual([
      "globex/ops-agent",
    ]);
  });

  const notFound = [
    {
      given: "an unknown integration",
      path: plainPath("00000000-0000-4000-8000-000000000000"),
      key: undefined,
      tenant: undefined,
    },
    {
      given: "another organization's integration",
      path: plainPath(ids.globexIntegration),
      key: undefined,
      tenant: undefined,
    },
    {
      given: "Acme's integration seen by Globex",
      path: managedPath(ids.managedIntegration),
      key: globexKey,
      tenant: undefined,
    },
    {
      given: "an integration of another tenant of the same organization",
      path: plainPath(ids.plainIntegration),
      key: undefined,
      tenant: ids.acmeStaging,
    },
    {
      given: "a managed integration on the plain path",
      path: plainPath(ids.managedIntegration),
      key: undefined,
      tenant: undefined,
    },
    {
      given: "a plain integration on the managed path",
      path: managedPath(ids.plainIntegration),
      key: undefined,
      tenant: undefined,
    },
  ];
  for (const { given, path, key, tenant } of notFound) {
    it(`404 for ${given}`, async () => {
      const response = await server.request("GET", path, { key, tenant });
      expect(response.status).toBe(404);
      expect(response.body.type).toBe("urn:deployment-service:problem:not-found");
      expect(response.text).not.toContain("globex/ops-agent");
    });
  }

  it("422 for a malformed integration id", async () => {
    const response = await server.request("GET", plainPath("not-a-uuid"));
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ parameter: "integration_id" })]);
  });
});
