/** The kit's demo data (contract/demo-fixture.json) as the spec-only implementation's seed, so the suite's demo flags fit it. */
import { demoFixture } from "../../contract/index.js";
import type { Seed } from "./server.js";

/** Keys, tenants and integrations of the demo organizations. */
export function demoSeed(): Seed {
  return {
    keys: demoFixture.organizations.map((org) => {
      const tenantId = (name: string) => org.tenants.find((t) => t.name === name)?.id ?? name;
      return {
        key: org.apiKey.secret,
        organizationId: org.id,
        defaultTenant: tenantId(org.apiKey.defaultTenant),
        tenants: org.apiKey.tenants.map(tenantId),
      };
    }),
    integrations: demoFixture.integrations.map((i) => ({
      id: i.id,
      tenantId: i.tenant_id,
      managed: i.kind === "managed",
      repositories: i.repositories.map(({ id, name, owner, url, default_branch }) => ({
        id,
        name,
        owner,
        url,
        default_branch,
      })),
    })),
  };
}
