/** Checks of tenant and organization isolation with a second organization's key and a second tenant of the same key (D-13 to D-15). */

import { ensure, expect2xx, expectStatus, isObject, jsonArray, jsonObject } from "../check-kit/assert.js";
import {
  createDeployment,
  createProvider,
  type Json,
  listDeployments,
  listProviders,
  paths,
  plainProvider,
} from "../check-kit/helpers.js";
import { deploymentBody, plainSource } from "../model/data.js";
import type { Check } from "../runner/check.js";

const tags = ["isolation"];

export const isolationChecks: Check[] = [
  {
    id: "ISO-001",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement:
      "A deployment of one organization is not listed for another organization's key (by name_contains or deployment_ids)",
    specRef: "D-13 to D-15 (nothing of one tenant is visible to another)",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { record, body } = await createDeployment(ctx, { label: "iso" });
      const byName = await listDeployments(ctx, { name_contains: String(body.name) }, "other");
      ensure(
        byName.resources.length === 0,
        `the other key sees ${byName.resources.length} deployments named ${String(body.name)}`,
        byName.exchange,
      );
      const byId = await listDeployments(ctx, { deployment_ids: String(record.id) }, "other");
      ensure(
        byId.resources.length === 0,
        `the other key sees deployment ${String(record.id)} through deployment_ids`,
        byId.exchange,
      );
      const walk = await listDeployments(ctx, { limit: 100 }, "other");
      const foreign = walk.resources.filter((r) => r.tenant_id === record.tenant_id);
      ensure(
        foreign.length === 0,
        `the other key's list holds ${foreign.length} deployments of the main tenant`,
        walk.exchange,
      );
    },
  },
  {
    id: "ISO-002",
    level: "SHOULD",
    tags: [...tags, "listOAuthProviders"],
    statement: "An OAuth provider of one organization is not listed for another organization's key",
    specRef: "D-13 to D-15 (OAuth providers belong to the organization)",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { record } = await plainProvider(ctx);
      const { exchange, records } = await listProviders(ctx, "other");
      ensure(
        !records.some((r) => r.id === record.id),
        "the other organization lists this organization's provider",
        exchange,
      );
      ensure(
        !records.some((r) => r.organization_id === record.organization_id),
        `the other organization's list holds providers of organization ${String(record.organization_id)}`,
        exchange,
      );
    },
  },
  {
    id: "ISO-003",
    level: "SHOULD",
    tags: [...tags, "listCodehostRepositories"],
    statement: "An integration of another tenant answers 404 (operation 3)",
    specRef: "D-13 to D-15 (an integration of another tenant is 404)",
    needs: ["otherApiKey", "integration", "state"],
    async run(ctx) {
      const ex = await ctx.send({
        method: "GET",
        path: paths.repos(ctx.config.integrationId!),
        auth: "other",
        tenant: "none",
        operation: "listCodehostRepositories",
      });
      expectStatus(ex, 404, "list repositories of another tenant's integration");
    },
  },
  {
    id: "ISO-004",
    level: "SHOULD",
    tags: [...tags, "listDeployments", "tenant"],
    statement: "The tenant of another organization named in X-Tenant-Id answers 403",
    specRef: "D-13 to D-15 (a tenant the key cannot reach: 403)",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "iso-other", auth: "other" });
      const tenant = String(record.tenant_id);
      const ex = await ctx.send({ method: "GET", path: paths.deployments, tenant, operation: "listDeployments" });
      expectStatus(ex, 403, `list deployments with X-Tenant-Id of the other organization (${tenant})`);
    },
  },
  {
    id: "ISO-005",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "duplicates"],
    statement: "Deployment names are unique per tenant: another tenant may use the same name",
    specRef: "D-37/D-38 (unique per tenant)",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { body } = await createDeployment(ctx, { label: "iso-same" });
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: body,
        auth: "other",
        operation: "createDeployment",
      });
      if (ex.response.status < 300 && isObject(ex.json))
        ctx.created({ kind: "deployment", id: String(ex.json.id), name: String(body.name), key: "other" });
      expect2xx(ex, "create a deployment in the other tenant with a name used in this tenant");
    },
  },

  {
    id: "ISO-006",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement: "Every deployment listed belongs to one tenant, the caller's (the one its own creates land in)",
    specRef: "D-13 to D-15 (deployments belong to a tenant; nothing of one tenant is visible to another)",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "iso-own" });
      const page = await listDeployments(ctx, { limit: 100 });
      const foreign = page.resources.filter((r) => r.tenant_id !== record.tenant_id);
      ensure(
        foreign.length === 0,
        `${foreign.length} listed deployments belong to other tenants (${[...new Set(foreign.map((r) => String(r.tenant_id)))].join(", ")})`,
        page.exchange,
      );
    },
  },
  {
    id: "ISO-007",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement: "A deployment created with another organization's key is not listed for this key",
    specRef: "D-13 to D-15 (nothing of one tenant is visible to another)",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { record, body } = await createDeployment(ctx, { label: "iso-theirs", auth: "other" });
      const byName = await listDeployments(ctx, { name_contains: String(body.name) });
      ensure(
        byName.resources.length === 0,
        `this key sees ${byName.resources.length} deployments the other organization created`,
        byName.exchange,
      );
      const byId = await listDeployments(ctx, { deployment_ids: String(record.id) });
      ensure(
        byId.resources.length === 0,
        "this key sees the other organization's deployment through deployment_ids",
        byId.exchange,
      );
    },
  },
  {
    id: "ISO-008",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "tenant"],
    statement:
      "A deployment created with X-Tenant-Id of the key's second tenant belongs to that tenant and is not listed in the first",
    specRef: "D-14, D-15 (X-Tenant-Id selects the tenant; deployments belong to a tenant)",
    needs: ["otherTenant", "write", "state"],
    async run(ctx) {
      const other = ctx.config.otherTenantId!;
      const body = deploymentBody(ctx.name("iso-tenant"), plainSource(ctx.config.hosting));
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: body,
        tenant: other,
        operation: "createDeployment",
      });
      expect2xx(ex, `create a deployment with X-Tenant-Id ${other}`);
      const record = jsonObject(ex, "create deployment");
      ctx.created({ kind: "deployment", id: String(record.id), name: String(body.name), key: "main" });
      ensure(
        String(record.tenant_id).toLowerCase() === other.toLowerCase(),
        `the deployment created with X-Tenant-Id ${other} carries tenant_id ${String(record.tenant_id)}`,
        ex,
      );
      const here = await listDeployments(ctx, { name_contains: String(body.name) });
      ensure(
        here.resources.length === 0,
        `the first tenant lists ${here.resources.length} deployments created in the second tenant (${other})`,
        here.exchange,
      );
      const there = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { deployment_ids: String(record.id) },
        tenant: other,
        operation: "listDeployments",
      });
      expect2xx(there, "list deployments of the second tenant");
      const listed = (jsonObject(there, "list deployments").resources as unknown[] | undefined) ?? [];
      ensure(
        listed.length === 1,
        `the second tenant lists ${listed.length} deployments with its own deployment's id`,
        there,
      );
    },
  },
  {
    id: "ISO-009",
    level: "SHOULD",
    tags: [...tags, "listDeployments", "tenant"],
    statement: "A deployment of the key's first tenant is not listed with X-Tenant-Id of its second tenant",
    specRef: "D-14, D-15 (nothing of one tenant is visible to another)",
    needs: ["otherTenant", "write", "state"],
    async run(ctx) {
      const { record, body } = await createDeployment(ctx, { label: "iso-first" });
      const other = ctx.config.otherTenantId!;
      if (String(record.tenant_id).toLowerCase() === other.toLowerCase())
        ctx.skip(`--other-tenant-id ${other} is the tenant the key acts on without it`);
      for (const query of [{ name_contains: String(body.name) }, { deployment_ids: String(record.id) }]) {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query,
          tenant: other,
          operation: "listDeployments",
        });
        expect2xx(ex, "list deployments of the second tenant");
        const listed = (jsonObject(ex, "list deployments").resources as unknown[] | undefined) ?? [];
        ensure(
          listed.length === 0,
          `the second tenant lists the first tenant's deployment (${Object.keys(query)[0]})`,
          ex,
        );
      }
    },
  },
  {
    id: "ISO-010",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "duplicates", "tenant"],
    statement: "A deployment name used in one tenant of the key may be used in its second tenant",
    specRef: "D-14, D-37/D-38 (names unique per tenant)",
    needs: ["otherTenant", "write", "state"],
    async run(ctx) {
      const { record, body } = await createDeployment(ctx, { label: "iso-name" });
      const other = ctx.config.otherTenantId!;
      if (String(record.tenant_id).toLowerCase() === other.toLowerCase())
        ctx.skip(`--other-tenant-id ${other} is the tenant the key acts on without it`);
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: body,
        tenant: other,
        operation: "createDeployment",
      });
      if (ex.response.status < 300 && isObject(ex.json))
        ctx.created({ kind: "deployment", id: String(ex.json.id), name: String(body.name), key: "main" });
      expect2xx(ex, `create a deployment in tenant ${other} with a name used in the first tenant`);
    },
  },
  {
    id: "ISO-011",
    level: "SHOULD",
    tags: [...tags, "listOAuthProviders", "tenant"],
    statement: "An OAuth provider created in one tenant is listed in the organization's other tenant",
    specRef: "D-15 (OAuth providers belong to the organization)",
    needs: ["otherTenant", "write", "state"],
    async run(ctx) {
      const { record } = await plainProvider(ctx);
      const ex = await ctx.send({
        method: "GET",
        path: paths.providers,
        tenant: ctx.config.otherTenantId!,
        operation: "listOAuthProviders",
      });
      expect2xx(ex, "list OAuth providers of the second tenant");
      ensure(
        (jsonArray(ex, "list OAuth providers") as Json[]).some((r) => r.id === record.id),
        "the organization's provider is not listed in its second tenant",
        ex,
      );
    },
  },
  {
    id: "ISO-012",
    level: "SHOULD",
    tags: [...tags, "listCodehostRepositories", "tenant"],
    statement: "The configured integration answers 404 with X-Tenant-Id of the key's second tenant",
    specRef: "D-15 (code-host integrations belong to a tenant; another tenant's is 404)",
    needs: ["otherTenant", "integration", "state"],
    async run(ctx) {
      const ex = await ctx.send({
        method: "GET",
        path: paths.repos(ctx.config.integrationId!),
        tenant: ctx.config.otherTenantId!,
        operation: "listCodehostRepositories",
      });
      expectStatus(ex, 404, "list repositories of the first tenant's integration from the second tenant");
    },
  },
  {
    id: "ISO-013",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "duplicates"],
    statement: "A provider_id used in one organization may be used in another organization (201 or 200, not 409)",
    specRef: "D-38 (provider_id unique per organization), D-15, D-22",
    needs: ["otherApiKey", "write", "state"],
    async run(ctx) {
      const { body } = await plainProvider(ctx);
      await createProvider(ctx, body, "other");
    },
  },
  {
    id: "ISO-014",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "duplicates", "tenant"],
    statement:
      "A provider_id used in one tenant is taken in the organization's second tenant too: there it answers 409",
    specRef: "D-38 (provider_id unique per organization), D-15 (providers belong to the organization), D-22",
    needs: ["otherTenant", "write", "state"],
    async run(ctx) {
      const { body } = await plainProvider(ctx);
      const ex = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: body,
        tenant: ctx.config.otherTenantId!,
        operation: "createOAuthProvider",
      });
      if (ex.response.status < 300 && isObject(ex.json))
        ctx.created({ kind: "oauth_provider", id: String(ex.json.id), name: String(body.provider_id), key: "main" });
      expectStatus(ex, 409, "create a provider in the second tenant with a provider_id of the first");
    },
  },
];
