/**
 * Filters judged with adversarial values (PROP-009, PROP-010): every generated query, restricted to the property set,
 * returns what the model of conformance/model/deployment-model.ts says.
 */
import { ensure, expect2xx, expectStatus, jsonObject } from "../check-kit/assert.js";
import { type Json, paths } from "../check-kit/helpers.js";
import { adversarialQueries, nameQueries } from "../model/adversarial-queries.js";
import type { ListQuery } from "../model/deployment-model.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal, noVerdictPrefix } from "../runner/no-verdict.js";
import { holdsFor, reached } from "./properties-run.js";
import { type PropertySet, propertySet } from "./properties-set.js";

/** The query string of a model query: arrays comma-separated (D-64). */
export function wire(query: ListQuery): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(",") : v;
  return out;
}

/** Sends a query and returns the ids of the set it returned, in order. */
async function setIdsOf(ctx: CheckContext, set: PropertySet, query: ListQuery) {
  const exchange = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query: wire(query),
    operation: "listDeployments",
  });
  const ids =
    isRefusal(exchange) || exchange.response.status >= 300
      ? []
      : ((jsonObject(exchange, "list deployments").resources as Json[]) ?? [])
          .map((r) => String(r.id))
          .filter((id) => set.model.byId(id) !== undefined);
  return { exchange, ids };
}

const names = (set: PropertySet, ids: Iterable<string>) =>
  [...ids].map((id) => set.model.byId(id)?.name ?? id).join(", ") || "none";

/**
 * PROP-009: a name_contains value of any class returns no deployment whose name does not contain it in any letter
 * case, and every deployment whose name contains it exactly. A refused value is no verdict (PROP-010 judges it).
 */
async function nameContainsHolds(ctx: CheckContext): Promise<void> {
  const set = await propertySet(ctx);
  let refused = 0;
  let judged = 0;
  await holdsFor(ctx, nameQueries(set), async (drawn) => {
    for (const { query, classes, text } of drawn) {
      const value = query.name_contains!;
      const { exchange, ids } = await setIdsOf(ctx, set, query);
      if (isRefusal(exchange)) {
        refused += 1;
        continue;
      }
      expect2xx(exchange, `list deployments with name_contains ${JSON.stringify(value)}`);
      judged += 1;
      for (const [filter, klass] of classes) reached(ctx, "filters", filter, klass);
      if (text) reached(ctx, "text", text, "query.name_contains");
      const got = new Set(ids);
      const loose = set.model.deployments.filter((d) => d.name.toLowerCase().includes(value.toLowerCase()));
      const wrong = ids.filter((id) => !loose.some((d) => d.id === id));
      ensure(
        wrong.length === 0,
        `name_contains ${JSON.stringify(value)} returned ${names(set, wrong)}, whose names do not contain it`,
        exchange,
      );
      const missing = set.model.deployments.filter((d) => d.name.includes(value) && !got.has(d.id)).map((d) => d.id);
      ensure(
        missing.length === 0,
        `name_contains ${JSON.stringify(value)} left out ${names(set, missing)}, whose names contain it`,
        exchange,
      );
    }
  });
  if (refused > 0) ctx.note(`${refused} generated values refused with a 4xx (judged by PROP-010 at SHOULD)`);
  if (judged === 0) ctx.skip(`${noVerdictPrefix}: every generated name_contains value was refused; PROP-010 judges it`);
}

/** PROP-010: every generated query: a malformed value is 422, any other returns exactly the model's selection of the set. */
async function modelHolds(ctx: CheckContext): Promise<void> {
  const set = await propertySet(ctx);
  await holdsFor(ctx, adversarialQueries(set, false), async (drawn) => {
    for (const { query, classes, malformed } of drawn) {
      const { exchange, ids } = await setIdsOf(ctx, set, query);
      for (const [filter, klass] of classes) reached(ctx, "filters", filter, klass);
      if (malformed) {
        expectStatus(
          exchange,
          422,
          `list deployments with a malformed value in ${JSON.stringify(query)} (D-07, D-25, D-44)`,
        );
        continue;
      }
      expect2xx(exchange, `list deployments with ${JSON.stringify(query)}`);
      const { sure, maybe } = set.model.selection(query);
      const got = new Set(ids);
      const allowed = new Set([...sure, ...maybe].map((d) => d.id));
      const missing = sure.filter((d) => !got.has(d.id)).map((d) => d.id);
      const extra = ids.filter((id) => !allowed.has(id));
      const want = names(
        set,
        sure.map((d) => d.id),
      );
      const may =
        maybe.length > 0
          ? ` (maybe ${names(
              set,
              maybe.map((d) => d.id),
            )})`
          : "";
      ensure(
        missing.length === 0 && extra.length === 0,
        `${JSON.stringify(query)} returned ${names(set, ids)}; the model wants ${want}${may}`,
        exchange,
      );
    }
  });
}

const tags = ["properties", "generated", "filters", "listDeployments"];

export const filterPropertyChecks: Check[] = [
  {
    id: "PROP-009",
    level: "MUST",
    tags,
    statement:
      "name_contains with values of every class (as stored, another letter case, with %, _, *, ?, &, +, #, quotes, backslashes, percent-encodings, non-ASCII inserted, 8 characters of a deployment's id, one and two characters of a name with deployment_ids naming the set) returns only deployments whose name contains it in some letter case, and every one whose name contains it exactly",
    specRef: "interface-spec: 5. List deployments (name_contains: Filter by deployment name); D-496",
    needs: ["write", "state"],
    run: nameContainsHolds,
  },
  {
    id: "PROP-010",
    level: "SHOULD",
    tags,
    statement:
      "Every generated query (name_contains, an accent-folded name_contains, deployment_ids with unknown, upper-case, prefix and malformed ids, status, image_version in every value class, remote_reconciled, deployment_type, tag_value_ids, combined) returns exactly the model's selection of the run's records, and a malformed value is 422",
    specRef: "D-39 to D-45 (filters), D-07, D-25, D-44 (422 for a malformed value), D-190 (uuid letter case), D-496",
    needs: ["write", "state"],
    run: modelHolds,
  },
];
