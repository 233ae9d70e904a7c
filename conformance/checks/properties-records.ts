/**
 * A record judged in every answer (PROP-005, PROP-006): each deployment of the property set, wherever a generated query
 * returns it, equals its create answer field for field; state fields move only as D-12 allows; providers never change.
 */
import { ensure, expect2xx, jsonArray, jsonObject } from "../check-kit/assert.js";
import { differences, instant, type Json, paths } from "../check-kit/helpers.js";
import { adversarialQueries } from "../model/adversarial-queries.js";
import { keptFields, type ListQuery } from "../model/deployment-model.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal } from "../runner/no-verdict.js";
import { wire } from "./properties-filters.js";
import { holdsFor, reached } from "./properties-run.js";
import { type PropertySet, propertySet } from "./properties-set.js";

/** What D-12 allows of a listed deployment's state fields against the furthest state seen. */
function stateProblems(listed: Json, created: Json, seen: Json): string[] {
  const out: string[] = [];
  const order = ["AWAITING_DATABASE", "READY"];
  const was = order.indexOf(String(seen.status));
  const now = order.indexOf(String(listed.status));
  if (listed.status !== seen.status && (was < 0 || now < was))
    out.push(
      `status went from ${String(seen.status)} to ${String(listed.status)} (D-12: only AWAITING_DATABASE → READY)`,
    );
  const updated = instant(listed.updated_at);
  const before = instant(seen.updated_at);
  if (updated === undefined || before === undefined || updated < before)
    out.push(`updated_at went back from ${String(seen.updated_at)} to ${String(listed.updated_at)}`);
  const start = instant(created.created_at);
  if (updated !== undefined && start !== undefined && updated < start)
    out.push(`updated_at ${String(listed.updated_at)} is before created_at ${String(created.created_at)}`);
  if (listed.active_revision_id !== null && listed.active_revision_id !== created.latest_revision_id)
    out.push(`active_revision_id ${String(listed.active_revision_id)} is neither null nor the latest revision (D-12)`);
  return out;
}

/** Lists with generated valid queries and judges every record of the set returned; at SHOULD the providers too. */
async function recordsHold(ctx: CheckContext): Promise<void> {
  const set = await propertySet(ctx);
  const seen = new Map<string, Json>(set.model.deployments.map((d) => [d.id, d.record]));
  await holdsFor(ctx, adversarialQueries(set, true), async (drawn) => {
    for (const { query, classes } of drawn) await recordsOf(ctx, set, seen, query, classes);
    if (ctx.level === "MUST") return;
    await providersHold(ctx, set);
  });
}

/** One list of generated filters: every record of the set it returns as created, its state fields as D-12 allows. */
async function recordsOf(
  ctx: CheckContext,
  set: PropertySet,
  seen: Map<string, Json>,
  query: ListQuery,
  classes: [string, string][],
) {
  const exchange = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query: wire(query),
    operation: "listDeployments",
  });
  // at MUST a refused value is no verdict (the status values are D-07); PROP-010 judges refusals at SHOULD
  if (ctx.level === "MUST" && isRefusal(exchange)) return;
  expect2xx(exchange, `list deployments with ${JSON.stringify(query)}`);
  for (const [filter, klass] of classes) reached(ctx, "filters", filter, klass);
  for (const listed of jsonObject(exchange, "list deployments").resources as Json[]) {
    const known = set.model.byId(String(listed.id));
    if (!known) continue;
    const diff = differences(listed, keptFields(known.record, ctx.level));
    ensure(diff.length === 0, `${known.name} is listed unlike its create answer: ${diff.join("; ")}`, exchange);
    if (ctx.level === "MUST") continue;
    const problems = stateProblems(listed, known.record, seen.get(known.id)!);
    ensure(problems.length === 0, `${known.name}: ${problems.join("; ")}`, exchange);
    seen.set(known.id, listed);
  }
}

/** Every provider of the set is listed exactly as its create answer (D-250). */
async function providersHold(ctx: CheckContext, set: PropertySet) {
  const providers = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
  expect2xx(providers, "list OAuth providers");
  const records = jsonArray(providers, "list OAuth providers") as Json[];
  for (const created of set.providers) {
    const listed = records.find((p) => p.id === created.id);
    ensure(listed !== undefined, `the provider ${String(created.provider_id)} is not listed`, providers);
    const diff = differences(listed, created);
    ensure(
      diff.length === 0,
      `${String(created.provider_id)} is listed unlike its create answer: ${diff.join("; ")}`,
      providers,
    );
  }
}

const tags = ["properties", "generated", "records", "listDeployments", "listOAuthProviders"];

export const recordPropertyChecks: Check[] = [
  {
    id: "PROP-005",
    level: "MUST",
    tags,
    statement:
      "Under every generated query (name_contains, deployment_ids, status, image_version, remote_reconciled, deployment_type, tag_value_ids, alone and combined), each deployment returned keeps the name, source, id, tenant_id and created_at of its create answer (the fields the interface spec freezes, D-234)",
    specRef:
      "interface-spec: Deployment (name and source cannot be changed after creation; id, tenant_id, created_at read-only); 5. List deployments (a page of Deployment records)",
    needs: ["write", "state"],
    run: recordsHold,
  },
  {
    id: "PROP-006",
    level: "SHOULD",
    tags,
    statement:
      "Under every generated query, a deployment's status only moves AWAITING_DATABASE → READY, updated_at never goes back nor before created_at, active_revision_id is null or the latest revision; every provider is listed exactly as its create answer",
    specRef: "D-12 (transitions), D-250 (a record holds its values from one answer to the next)",
    needs: ["write", "state"],
    run: recordsHold,
  },
];
