/** Tests of authentication and tenant isolation (D-13 to D-15): 401, 403, and no record of one organization or tenant visible to another. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyFor, ids, providerBody } from "../testing/fixtures.js";
import { acmeKey, globexKey, startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const operations = [
  { method: "GET", path: "/v2/deployments" },
  { method: "POST", path: "/v2/deployments", body: bodyFor("internal_template", "auth-probe") },
  { method: "GET", path: "/v2/auth/providers" },
  { method: "POST", path: "/v2/auth/providers", body: providerBody("auth-probe") },
  { method: "GET", path: `/v1/integrations/codehost/${ids.plainIntegration}/repos` },
  { method: "GET", path: `/v1/integrations/forge/codehost/${ids.managedIntegration}/repos` },
];

describe("401 and 403 on every operation", () => {
  for (const { method, path, body } of operations) {
    it(`${method} ${path}: missing key 401, unknown key 401, unreachable tenant 403`, async () => {
      const missing = await server.request(method, path, { key: null, body });
      expect(missing.status).toBe(401);
      expect(missing.body.type).toBe("urn:deployment-service:problem:unauthenticated");
      const unknown = await server.request(method, path, { key: "dk_live_nope", body });
      expect(unknown.status).toBe(401);
      const otherOrganization = await server.request(method, path, { tenant: ids.globexProduction, body });
      expect(otherOrganization.status).toBe(403);
      expect(otherOrganization.body.type).toBe("urn:deployment-service:problem:forbidden");
      const nonexistent = await server.request(method, path, { key: globexKey, tenant: ids.acmeStaging, body });
      expect(nonexistent.status).toBe(403);
    });
  }

  it("accepts header names in any case and a tenant id in upper case", async () => {
    const response = await fetch(`${server.url}/v2/deployments`, {
      headers: { "x-api-key": acmeKey, "X-TENANT-ID": ids.acmeStaging.toUpperCase() },
    });
    expect(response.status).toBe(200);
  });

  it("422 for a malformed X-Tenant-Id", async () => {
    const response = await server.request("GET", "/v2/deployments", { tenant: "staging" });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ parameter: "X-Tenant-Id" })]);
  });
});

describe("tenant isolation", () => {
  it("Globex sees none of Acme's deployments or providers, and Acme staging none of Acme production's deployments", async () => {
    const acmeDeployment = await server.request("POST", "/v2/deployments", {
      body: bodyFor("internal_template", "isolated-a"),
    });
    expect(acmeDeployment.status).toBe(201);
    await server.request("POST", "/v2/auth/providers", { body: providerBody("isolated-p") });

    const globexDeployments = await server.request("GET", "/v2/deployments?limit=100", { key: globexKey });
    expect(globexDeployments.body.resources.map((d: { tenant_id: string }) => d.tenant_id)).not.toContain(
      ids.acmeProduction,
    );
    expect(globexDeployments.text).not.toContain("isolated-a");
    const globexProviders = await server.request("GET", "/v2/auth/providers", { key: globexKey });
    expect(globexProviders.text).not.toContain("isolated-p");
    const staging = await server.request("GET", `/v2/deployments?limit=100&deployment_ids=${acmeDeployment.body.id}`, {
      tenant: ids.acmeStaging,
    });
    expect(staging.body.resources).toEqual([]);
    const production = await server.request("GET", `/v2/deployments?deployment_ids=${acmeDeployment.body.id}`, {
      tenant: ids.acmeProduction,
    });
    expect(production.body.resources).toHaveLength(1);
  });

  it("the same name may exist in two organizations, each seeing only its own", async () => {
    expect(
      (await server.request("POST", "/v2/deployments", { body: bodyFor("internal_template", "shared-name") })).status,
    ).toBe(201);
    const globex = await server.request("POST", "/v2/deployments", {
      body: bodyFor("internal_template", "shared-name"),
      key: globexKey,
    });
    expect(globex.status).toBe(201);
    const globexList = await server.request("GET", "/v2/deployments?name_contains=shared-name", { key: globexKey });
    expect(globexList.body.resources.map((d: { id: string }) => d.id)).toEqual([globex.body.id]);
  });
});
