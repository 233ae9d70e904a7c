/** The kit's demo data (D-77): two organizations with their tenants and API keys, and their code-host integrations, from demo-fixture.json. */
import { readFileSync } from "node:fs";

/** A repository of a demo integration, with the branches and tags its refs resolve to. */
export interface DemoRepository {
  id: number;
  owner: string;
  name: string;
  url: string;
  default_branch: string;
  /** Branch name → commit sha. */
  branches: Record<string, string>;
  /** Full tag ref (`refs/tags/v1.0.0`) → commit sha. */
  tags?: Record<string, string>;
}

/** A code-host integration of a tenant: `plain` answers operation 3, `managed` operation 4. */
export interface DemoIntegration {
  id: string;
  tenant_id: string;
  kind: "plain" | "managed";
  repositories: DemoRepository[];
}

/** An organization with its tenants and its one API key. */
export interface DemoOrganization {
  name: string;
  id: string;
  displayName: string;
  tenants: Array<{ name: string; id: string; displayName: string }>;
  apiKey: { id: string; secret: string; label: string; defaultTenant: string; tenants: string[] };
}

/** The shape of demo-fixture.json. */
export interface DemoFixture {
  organizations: DemoOrganization[];
  integrations: DemoIntegration[];
}

/** Where the fixture lives: the reference server's code-host adapter loads integrations from this file. */
export const demoFixturePath = new URL("./demo-fixture.json", import.meta.url);

/** The whole fixture. */
export const demoFixture = JSON.parse(readFileSync(demoFixturePath, "utf8")) as DemoFixture;

function organization(name: string): DemoOrganization {
  const found = demoFixture.organizations.find((entry) => entry.name === name);
  if (!found) throw new Error(`demo-fixture.json has no organization ${name}`);
  return found;
}

function tenantId(org: DemoOrganization, name: string): string {
  const found = org.tenants.find((tenant) => tenant.name === name);
  if (!found) throw new Error(`demo organization ${org.name} has no tenant ${name}`);
  return found.id;
}

/** The first tag ref a repository of the integration holds. */
function firstTag(id: string): string {
  const found = demoFixture.integrations
    .find((entry) => entry.id === id)
    ?.repositories.flatMap((repository) => Object.keys(repository.tags ?? {}))[0];
  if (!found) throw new Error(`demo integration ${id} has no tag`);
  return found;
}

function integrationId(tenant: string, kind: DemoIntegration["kind"]): string {
  const found = demoFixture.integrations.find((entry) => entry.tenant_id === tenant && entry.kind === kind);
  if (!found) throw new Error(`demo tenant ${tenant} has no ${kind} integration`);
  return found.id;
}

const acme = organization("acme");
const globex = organization("globex");

/** The demo values by role: Acme reaches two tenants and has both kinds of integration; Globex is the other organization of the isolation checks. */
export const demo = {
  acme: {
    organizationId: acme.id,
    productionTenantId: tenantId(acme, "production"),
    stagingTenantId: tenantId(acme, "staging"),
    apiKey: acme.apiKey.secret,
    plainIntegrationId: integrationId(tenantId(acme, "production"), "plain"),
    managedIntegrationId: integrationId(tenantId(acme, "production"), "managed"),
    /** A tag a repository of the plain integration holds (DEP-CREATE-026's --codehost-tag). */
    codehostTag: firstTag(integrationId(tenantId(acme, "production"), "plain")),
  },
  globex: {
    organizationId: globex.id,
    productionTenantId: tenantId(globex, "production"),
    apiKey: globex.apiKey.secret,
    plainIntegrationId: integrationId(tenantId(globex, "production"), "plain"),
  },
} as const;

/** The conformance suite's flags for a target serving the demo data: Acme's key, integrations and second tenant, Globex's key for the isolation checks. */
export function demoFlags(baseUrl: string, hosting: "cloud" | "self_hosted" = "cloud"): string[] {
  return [
    "--base-url",
    baseUrl,
    "--api-key",
    demo.acme.apiKey,
    "--other-tenant-id",
    demo.acme.stagingTenantId,
    "--other-api-key",
    demo.globex.apiKey,
    "--integration-id",
    demo.acme.plainIntegrationId,
    "--managed-integration-id",
    demo.acme.managedIntegrationId,
    "--codehost-tag",
    demo.acme.codehostTag,
    "--hosting",
    hosting,
  ];
}
