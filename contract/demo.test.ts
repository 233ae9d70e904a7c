/** The demo fixture is consistent: every integration belongs to a demo tenant, every key reaches its default tenant (D-77). */
import { describe, expect, it } from "vitest";
import { demo, demoFixture } from "./demo.js";

describe("demo fixture", () => {
  const tenants = new Set(demoFixture.organizations.flatMap((org) => org.tenants.map((tenant) => tenant.id)));

  it("puts every integration in a demo tenant, with its default branch among its branches", () => {
    for (const integration of demoFixture.integrations) {
      expect(tenants.has(integration.tenant_id), integration.id).toBe(true);
      for (const repository of integration.repositories)
        expect(repository.branches).toHaveProperty(repository.default_branch);
    }
  });

  it("gives every key its default tenant among the tenants it reaches", () => {
    for (const org of demoFixture.organizations) expect(org.apiKey.tenants).toContain(org.apiKey.defaultTenant);
  });

  it("names the roles the tools use", () => {
    expect(demo.acme.apiKey).not.toBe(demo.globex.apiKey);
    expect(demo.acme.managedIntegrationId).not.toBe(demo.acme.plainIntegrationId);
    expect(demo.globex.plainIntegrationId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
