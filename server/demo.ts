/** Demo mode (D-77): seeds the demo organizations, their tenants and API keys on an empty database, and prints how to call the server. */
import type { Logger } from "pino";
import { demo, demoFixture, demoFlags } from "../contract/demo.js";
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

/** The human-readable start banner: base URL, each demo key with its organization, tenants and integrations, curl examples and the conformance command line (D-77). */
export function demoBanner(url: string, hosting: "cloud" | "self_hosted"): string {
  const a = demo.acme;
  const g = demo.globex;
  const tenants = (organization: string) => demoFixture.organizations.find((org) => org.name === organization)!.tenants;
  const [acmeProduction, acmeStaging] = tenants("acme");
  const flags = demoFlags(url, hosting).map((flag) => (flag.startsWith("--") ? `\\\n    ${flag}` : flag));
  return [
    "",
    `Deployment service (demo mode, hosting ${hosting}) at ${url}`,
    "",
    `  Organization Acme ${a.organizationId}`,
    `    X-Api-Key: ${a.apiKey}`,
    `    tenants: ${acmeProduction!.displayName} ${a.productionTenantId} (the key's default), ${acmeStaging!.displayName} ${a.stagingTenantId} (the second tenant, X-Tenant-Id)`,
    `    integrations: plain ${a.plainIntegrationId}, managed ${a.managedIntegrationId}`,
    `  Organization Globex ${g.organizationId}`,
    `    X-Api-Key: ${g.apiKey}`,
    `    tenant: ${tenants("globex")[0]!.displayName} ${g.productionTenantId}; integration: plain ${g.plainIntegrationId}`,
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
    "Judge it with the conformance suite (npx deployment-conformance outside this repository):",
    `  npm run conformance -- ${flags.join(" ")}`,
    "",
  ].join("\n");
}
