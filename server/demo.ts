/** Demo mode (brief: demo data): seeds two organizations, their tenants and API keys on an empty database, and prints how to call the server. */
import type { Logger } from "pino";
import { hashApiKey } from "./auth/api-keys.js";
import type { Store } from "./storage/store.js";
import { UniqueViolation } from "./storage/store.js";

/** The fixed demo values; the code-host integrations are in codehost/demo-fixture.json. */
export const demo = {
  acme: {
    organizationId: "0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40",
    productionTenantId: "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f",
    stagingTenantId: "2d8e4f3b-9c57-4d80-9f4c-8b2e5a3c4d62",
    apiKey: "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f",
    plainIntegrationId: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
    managedIntegrationId: "5e2d3b0f-6c8e-4f3a-9b7d-2e1f0c9b8d76",
  },
  globex: {
    organizationId: "1c7d3f2a-8b46-4c7f-8e3b-7a1d4f2b3c51",
    productionTenantId: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60",
    apiKey: "dk_demo_globex_8a1c3e5f7b9d2f4a6c8e",
    plainIntegrationId: "8c4b2a1d-3e5f-4a6b-9c8d-7e6f5a4b3c21",
  },
} as const;

/** Seeds the demo records when the database is empty; returns whether it did. */
export async function seedDemo(store: Store, logger: Logger): Promise<boolean> {
  if (!(await store.isEmpty())) return false;
  try {
    await store.createOrganization({ id: demo.acme.organizationId, name: "Acme" });
  } catch (error) {
    // Another process started on the same empty database and is seeding it.
    if (error instanceof UniqueViolation) return false;
    throw error;
  }
  await store.createTenant({ id: demo.acme.productionTenantId, organizationId: demo.acme.organizationId, name: "acme-production" });
  await store.createTenant({ id: demo.acme.stagingTenantId, organizationId: demo.acme.organizationId, name: "acme-staging" });
  await store.createApiKey({
    id: "a1f0e2d3-c4b5-4a69-8778-695a4b3c2d1e",
    organizationId: demo.acme.organizationId,
    keyHash: hashApiKey(demo.acme.apiKey),
    label: "demo key of Acme",
    defaultTenantId: demo.acme.productionTenantId,
    tenantIds: [demo.acme.productionTenantId, demo.acme.stagingTenantId],
  });
  await store.createOrganization({ id: demo.globex.organizationId, name: "Globex" });
  await store.createTenant({ id: demo.globex.productionTenantId, organizationId: demo.globex.organizationId, name: "globex-production" });
  await store.createApiKey({
    id: "b2e1f3c4-d5a6-4b7a-8889-7a6b5c4d3e2f",
    organizationId: demo.globex.organizationId,
    keyHash: hashApiKey(demo.globex.apiKey),
    label: "demo key of Globex",
    defaultTenantId: demo.globex.productionTenantId,
    tenantIds: [demo.globex.productionTenantId],
  });
  logger.info({ organizations: ["Acme", "Globex"] }, "demo data seeded");
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
