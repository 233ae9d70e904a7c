/** Checks of tenant and organization isolation with a second organization's key (D-13 to D-15). */

import { ensure, expect2xx, expectStatus, isObject } from "../assert.js";
import type { Check } from "../check.js";
import { createDeployment, createProvider, listDeployments, listProviders, paths } from "../helpers.js";

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
      const { record } = await createProvider(ctx);
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
];
