/**
 * The attribution laws. LAW-013: every owner field of a record equals what the caller selected: a deployment's
 * tenant_id is the tenant X-Tenant-Id names (else the key's own, the same for every record), every OAuth provider of
 * the key carries one organization_id whatever tenant it was created in, and another organization's providers another.
 * LAW-019: every answer of the run belongs to its request: a page keeps its query, a create answers what it sent.
 */
import { ensure, expect2xx, isObject, jsonArray, jsonObject } from "../check-kit/assert.js";
import { type Json, paths, plainProvider } from "../check-kit/helpers.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import { runAnswers } from "../model/run-answers.js";
import type { Check, CheckContext } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";

/** The first value seen for a field of a scope; every later one must equal it. */
class Owners {
  private readonly first = new Map<string, { value: string; where: string }>();
  same(scope: string, value: unknown, where: string, exchange: Exchange): void {
    const seen = this.first.get(scope);
    if (!seen) {
      this.first.set(scope, { value: String(value), where });
      return;
    }
    ensure(
      String(value).toLowerCase() === seen.value.toLowerCase(),
      `${where} carries ${scope} ${String(value)}, but ${seen.where} carries ${seen.value}: the caller selected the same owner`,
      exchange,
    );
  }
  get(scope: string): string | undefined {
    return this.first.get(scope)?.value;
  }
}

/** A provider created with X-Tenant-Id `tenant`, and its record. */
async function providerIn(ctx: CheckContext, tenant: string): Promise<{ exchange: Exchange; record: Json }> {
  const exchange = await ctx.send({
    method: "POST",
    path: paths.providers,
    json: providerBody(ctx.name("owner")),
    operation: "createOAuthProvider",
    tenant,
  });
  expect2xx(exchange, `create an OAuth provider with X-Tenant-Id ${tenant}`);
  const record = jsonObject(exchange, "create OAuth provider");
  ctx.created({ kind: "oauth_provider", id: String(record.id), name: String(record.provider_id), key: "main" });
  return { exchange, record };
}

/** LAW-013: the owner fields of every record created and listed in each scope the configuration reaches. */
async function ownersAsSelected(ctx: CheckContext): Promise<void> {
  const owners = new Owners();
  const tenants: (string | undefined)[] = [undefined];
  if (ctx.config.otherTenantId) tenants.push(ctx.config.otherTenantId);
  for (const tenant of tenants) {
    const scope = tenant ? `tenant_id (X-Tenant-Id ${tenant})` : "tenant_id (the key's tenant)";
    const selected = tenant ?? ctx.config.tenantId;
    const body = deploymentBody(ctx.name("owner"), plainSource(ctx.config.hosting));
    const created = await ctx.send({
      method: "POST",
      path: paths.deployments,
      json: body,
      operation: "createDeployment",
      ...(tenant ? { tenant } : {}),
    });
    noVerdictWhenBodyRefused(ctx, created, body.source);
    expect2xx(created, `create a deployment${tenant ? ` with X-Tenant-Id ${tenant}` : ""}`);
    const record = jsonObject(created, "create deployment");
    ctx.created({ kind: "deployment", id: String(record.id), name: String(body.name), key: "main" });
    if (selected) owners.same(scope, selected, "the tenant selected", created);
    owners.same(scope, record.tenant_id, `the deployment ${String(body.name)} created there`, created);
    const listed = await ctx.send({
      method: "GET",
      path: paths.deployments,
      query: { limit: 100 },
      operation: "listDeployments",
      ...(tenant ? { tenant } : {}),
    });
    expect2xx(listed, "list deployments");
    for (const r of (jsonObject(listed, "list deployments").resources as Json[]) ?? [])
      owners.same(scope, r.tenant_id, `the listed deployment ${String(r.name)}`, listed);
    // a provider belongs to the organization whatever tenant it is created in (D-15); in the key's own tenant the
    // run's shared provider, created without X-Tenant-Id (D-245)
    const { exchange: provider, record: made } = tenant ? await providerIn(ctx, tenant) : await plainProvider(ctx);
    owners.same(
      "organization_id",
      made.organization_id,
      `the provider ${String(made.provider_id)} created${tenant ? ` with X-Tenant-Id ${tenant}` : ""}`,
      provider,
    );
    const providers = await ctx.send({
      method: "GET",
      path: paths.providers,
      operation: "listOAuthProviders",
      ...(tenant ? { tenant } : {}),
    });
    expect2xx(providers, "list OAuth providers");
    for (const p of jsonArray(providers, "list OAuth providers"))
      if (isObject(p))
        owners.same("organization_id", p.organization_id, `the listed provider ${String(p.provider_id)}`, providers);
  }
  const tenantIds = tenants.map((t) => owners.get(t ? `tenant_id (X-Tenant-Id ${t})` : "tenant_id (the key's tenant)"));
  if (tenantIds.length === 2)
    ensure(
      tenantIds[0]?.toLowerCase() !== tenantIds[1]?.toLowerCase(),
      `both tenants' deployments carry tenant_id ${tenantIds[0]}`,
    );
  if (!ctx.config.otherApiKey) return;
  const other = await ctx.send({
    method: "GET",
    path: paths.providers,
    operation: "listOAuthProviders",
    auth: "other",
    tenant: "none",
  });
  expect2xx(other, "list the other organization's OAuth providers");
  for (const p of jsonArray(other, "list OAuth providers"))
    if (isObject(p))
      ensure(
        String(p.organization_id) !== owners.get("organization_id"),
        `the other organization lists the provider ${String(p.provider_id)} with this organization's organization_id ${String(p.organization_id)}`,
        other,
      );
}

/** LAW-019: the first answer of the run, any check's (D-430), that does not keep its request fails it. */
async function answersKeepTheirRequests(ctx: CheckContext): Promise<void> {
  const broken = runAnswers(ctx.config).first;
  if (broken) ensure(false, `an answer of the run does not belong to its request: ${broken.why}`, broken.exchange);
}

export const attributionLawChecks: Check[] = [
  {
    id: "LAW-013",
    level: "SHOULD",
    tags: [
      "laws",
      "attribution",
      "isolation",
      "createDeployment",
      "createOAuthProvider",
      "listDeployments",
      "listOAuthProviders",
    ],
    statement:
      "Every owner field equals what the caller selected: tenant_id is the tenant X-Tenant-Id names (else the key's, one for every record of it), and every provider of the key carries one organization_id, in whichever tenant it was created, another organization's providers another",
    specRef:
      "D-14 (how the caller is tied to a tenant and an organization), D-15 (providers belong to the organization)",
    needs: ["write", "state"],
    run: ownersAsSelected,
  },
  {
    id: "LAW-019",
    level: "MUST",
    tags: ["laws", "attribution", "createDeployment", "createOAuthProvider", "listDeployments"],
    statement:
      "Every answer of the run, whichever check sent it, belongs to its request: no deployment page holds more than its limit (one in 1..100; 20 without one), a deployment deployment_ids does not name, one of another image_version than a non-empty image_version filter's, or a name without name_contains in some letter case; no create is answered with another name or source (a deployment) or provider_id, name or client_id (a provider) than it sent",
    specRef:
      "interface-spec: 5. List deployments (limit: maximum number of resources, default 20; deployment_ids; name_contains; image_version); 1. and 6. (the response is the record created); D-430 (every answer of the run)",
    needs: ["state"],
    run: answersKeepTheirRequests,
  },
];
