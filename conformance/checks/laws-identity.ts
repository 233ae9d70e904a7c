/**
 * Identity laws (LAW-005, LAW-006): every deployment, revision and provider id the run sees is unique across tenants
 * and organizations, and deployment_ids with repeated ids, in every order, returns each deployment once.
 */
import { deploymentStatuses } from "../../contract/index.js";
import { ensure, expect2xx, jsonObject } from "../check-kit/assert.js";
import { createDeployment, type Json, paths } from "../check-kit/helpers.js";
import { deploymentBody, plainSource } from "../model/data.js";
import { repeatsAndOrders, shapesOf } from "../model/repeats-and-orders.js";
import { runIds } from "../model/run-ids.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal, noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { lawRuns } from "./laws-run.js";
import { holdsFor, reached } from "./properties-run.js";

/** Creates a deployment named `name` with the given key and tenant, and lists it there; a refusal at MUST is no verdict. */
async function createAs(
  ctx: CheckContext,
  name: string,
  scope: { label: string; auth: "main" | "other"; tenant?: string },
): Promise<void> {
  const body = deploymentBody(name, plainSource(ctx.config.hosting));
  const exchange = await ctx.send({
    method: "POST",
    path: paths.deployments,
    json: body,
    operation: "createDeployment",
    auth: scope.auth,
    ...(scope.tenant ? { tenant: scope.tenant } : {}),
  });
  noVerdictWhenBodyRefused(ctx, exchange, body.source);
  expect2xx(exchange, `create the deployment ${name} in ${scope.label}`);
  const record = jsonObject(exchange, "create deployment");
  ctx.created({ kind: "deployment", id: String(record.id), name, key: scope.auth });
  const listed = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query: { name_contains: name, limit: 100 },
    operation: "listDeployments",
    auth: scope.auth,
    ...(scope.tenant ? { tenant: scope.tenant } : {}),
  });
  expect2xx(listed, `list deployments named ${name} in ${scope.label}`);
}

/**
 * LAW-005: one name created in every scope the configuration reaches, twice over; then every id any answer of the run
 * has shown so far (every check's, D-430) names one record.
 */
async function idsAreUnique(ctx: CheckContext): Promise<void> {
  const scopes: { label: string; auth: "main" | "other"; tenant?: string }[] = [
    { label: "the key's tenant", auth: "main" },
  ];
  if (ctx.config.otherTenantId)
    scopes.push({ label: `tenant ${ctx.config.otherTenantId}`, auth: "main", tenant: ctx.config.otherTenantId });
  if (ctx.config.otherApiKey) scopes.push({ label: "the other organization", auth: "other", tenant: "none" });
  if (scopes.length === 1)
    ctx.note("only the key's tenant is reached: give --other-tenant-id and --other-api-key to judge ids across them");
  for (const round of [0, 1]) {
    const name = ctx.name(`same${round}`);
    for (const scope of scopes) await createAs(ctx, name, scope);
  }
  const clash = runIds(ctx.config).clashes[0];
  if (clash) ensure(false, `the id ${clash.id} names two records: ${clash.first} and ${clash.second}`, clash.exchange);
}

/** The deployments LAW-006 lists by id: four, created once per area. */
export function idSet(ctx: CheckContext): Promise<string[]> {
  return ctx.fixture("law-id-set", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(String((await createDeployment(ctx, { label: "ids" })).record.id));
    return ids;
  });
}

/** The ids a page of deployments holds twice or more. */
function heldTwice(exchange: Exchange): string[] {
  const got = ((jsonObject(exchange, "list deployments").resources as Json[]) ?? []).map((r) => String(r.id));
  return got.filter((id, i) => got.indexOf(id) !== i);
}

/**
 * LAW-006: deployment_ids with repeats and in every order returns each named deployment exactly once; so does a status
 * filter with repeated values beside them; and no list answer of the run holds one record twice.
 */
async function repeatedIdsAnsweredOnce(ctx: CheckContext): Promise<void> {
  const base = await idSet(ctx);
  await holdsFor(
    ctx,
    repeatsAndOrders(base),
    async ({ items, shapes }) => {
      const exchange = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { deployment_ids: items.join(","), limit: 100 },
        operation: "listDeployments",
      });
      expect2xx(exchange, `list deployments with deployment_ids ${items.join(",")}`);
      const got = ((jsonObject(exchange, "list deployments").resources as Json[]) ?? []).map((r) => String(r.id));
      const twice = heldTwice(exchange);
      ensure(
        twice.length === 0,
        `deployment_ids ${items.join(",")} returned ${twice.join(", ")} more than once`,
        exchange,
      );
      const want = new Set(items);
      const missing = [...want].filter((id) => !got.includes(id));
      const extra = got.filter((id) => !want.has(id));
      ensure(
        missing.length === 0 && extra.length === 0,
        `deployment_ids ${items.join(",")}: ${missing.length > 0 ? `left out ${missing.join(", ")}` : ""}${extra.length > 0 ? ` returned others: ${extra.join(", ")}` : ""}`,
        exchange,
      );
      for (const shape of shapes) reached(ctx, "arrays", "deployment_ids", shape);
    },
    lawRuns(ctx) * 3,
  );
  // which status values the filter takes, and how it reads a list of them, is D-07's: a refusal is no verdict.
  // Each value twice, then all five with one repeated apart, in order and reversed: every shape a repeat takes.
  const statusLists = [
    ...deploymentStatuses.map((status) => [status, status]),
    [...deploymentStatuses, deploymentStatuses[1]!],
    [...deploymentStatuses].reverse().concat(deploymentStatuses[3]!),
  ];
  let refused = 0;
  for (const items of statusLists) {
    const exchange = await ctx.send({
      method: "GET",
      path: paths.deployments,
      query: { deployment_ids: base.join(","), status: items.join(","), limit: 100 },
      operation: "listDeployments",
      noValidate: true,
    });
    if (isRefusal(exchange)) {
      refused += 1;
      continue;
    }
    expect2xx(exchange, `list deployments with status ${items.join(",")}`);
    const twice = heldTwice(exchange);
    ensure(twice.length === 0, `status ${items.join(",")} returned ${twice.join(", ")} more than once`, exchange);
    for (const shape of shapesOf(items, deploymentStatuses)) reached(ctx, "arrays", "status", shape);
  }
  if (refused > 0) ctx.note(`${refused} status lists refused with a 4xx (D-07 states which the filter takes)`);
  const repeated = runIds(ctx.config).repeated;
  if (repeated)
    ensure(false, `a list answer of the run held the record ${repeated.id} more than once`, repeated.exchange);
}

const tags = ["laws", "identity", "generated", "createDeployment", "listDeployments"];

export const identityLawChecks: Check[] = [
  {
    id: "LAW-005",
    level: "MUST",
    tags: [...tags, "isolation"],
    statement:
      "Every deployment id, revision id and OAuth provider id any answer of the run has shown is unique to one record: one name created twice over in the key's tenant, its second tenant and another organization gives a different id each time, and no id seen by any check names two records",
    specRef:
      "interface-spec: Deployment (id: uuid, a universally unique identifier; latest_revision_id, active_revision_id: uuid); OAuthProvider (id: uuid); D-430",
    needs: ["write", "state"],
    run: idsAreUnique,
  },
  {
    id: "LAW-006",
    level: "MUST",
    tags,
    statement:
      "deployment_ids with ids repeated (next to each other or apart) and in every order (creation order, reversed, shuffled) returns each named deployment exactly once, and so does a status filter with values repeated beside them (a refused status list is no verdict); no list answer of the run holds one deployment or provider twice",
    specRef:
      "interface-spec: 5. List deployments (deployment_ids: comma-separated list of deployment IDs; status filter; resources: Deployment[]); D-07 (a status list)",
    needs: ["write", "state"],
    run: repeatedIdsAnsweredOnce,
  },
];
