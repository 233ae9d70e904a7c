/** Demo mode (D-77): seeds the demo organizations, their tenants and API keys on an empty database, and prints how to call the server. */
import type { Logger } from "pino";
import { demo, demoFixture } from "../contract/demo.js";
import { hashApiKey } from "./auth/api-keys.js";
import { UniqueViolation } from "./domain/store-errors.js";
import type { Store } from "./storage/store.js";

/** Seeds the demo organizations, tenants and API keys of the fixture (D-77) when the database is empty; returns whether it did. */
export async function seedDemo(store: Store, logger: Logger): Promise<boolean> {
  if (!(await store.isEmpty())) return false;
  for (const [index, org] of demoFixture.organizations.entries()) {
    try {
      await store.createOrganization({ id: org.id, name: org.displayName });
    } catch (error) {
      // Another process started on the same empty database and is seeding it.
      if (index === 0 && error instanceof UniqueViolation) return false;
      throw error;
    }
    for (const tenant of org.tenants)
      await store.createTenant({ id: tenant.id, organizationId: org.id, name: tenant.displayName });
    const tenantId = (name: string) => org.tenants.find((tenant) => tenant.name === name)!.id;
    await store.createApiKey({
      id: org.apiKey.id,
      organizationId: org.id,
      keyHash: hashApiKey(org.apiKey.secret),
      label: org.apiKey.label,
      defaultTenantId: tenantId(org.apiKey.defaultTenant),
      tenantIds: org.apiKey.tenants.map(tenantId),
    });
  }
  logger.info({ organizations: demoFixture.organizations.map((org) => org.displayName) }, "demo data seeded");
  return true;
}

/** The human-readable start banner: base URL, the demo keys and curl examples. */
export function demoBanner(url: string): string {
  const a = demo.acme;
  return [
    "",
    `Deployment service (demo mode) at ${url}`,
    "",
    `  Acme   (tenants acme-production, acme-staging): X-Api-Key: ${a.apiKey}`,
    `  Globex (tenant globex-production):              X-Api-Key: ${demo.globex.apiKey}`,
    "",
    "Try:",
    `  curl -s ${url}/v1/integrations/codehost/${a.plainIntegrationId}/repos -H 'X-Api-Key: ${a.apiKey}'`,
    `  curl -s ${url}/v1/integrations/forge/codehost/${a.managedIntegrationId}/repos -H 'X-Api-Key: ${a.apiKey}'`,
    `  curl -s -X POST ${url}/v2/deployments -H 'X-Api-Key: ${a.apiKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"name":"support-agent","source":"codehost","source_config":{"integration_id":"${a.plainIntegrationId}","repo_url":"https://codehost.example/acme/support-agent"},"source_revision_config":{"repo_ref":"main","graph_config_path":"graph.json"},"secrets":[]}'`,
    `  curl -s '${url}/v2/deployments?limit=20' -H 'X-Api-Key: ${a.apiKey}'`,
    `  curl -s ${url}/v2/deployments -H 'X-Api-Key: ${a.apiKey}' -H 'X-Tenant-Id: ${a.stagingTenantId}'`,
    `  curl -s ${url}/v2/auth/providers -H 'X-Api-Key: ${a.apiKey}'`,
    "",
  ].join("\n");
}
