/** Checks of operation 5 (interface-spec: List deployments, Paginated deployment list, Limits; D-08, D-09, D-39 to D-45). */

import { ensure, expect2xx, expect4xx, expectStatus, isObject, jsonObject } from "../assert.js";
import type { Check, CheckContext } from "../check.js";
import { containerImageTag, type Source } from "../data.js";
import {
  createDeployment,
  deploymentSet,
  instant,
  type Json,
  listDeployments,
  paths,
  walkDeployments,
} from "../helpers.js";
import { judgeEach, noVerdictWhenRefused, statusValuesJudgedBy } from "../no-verdict.js";
import { whileStatusesHold } from "../settle.js";

const tags = ["listDeployments", "deployments"];
const pagination = [...tags, "pagination"];
const filters = [...tags, "filters"];
const setSize = 7;

/** The set the list checks page through; self-hosted plain deployments carry an image without a tag. */
const pageSet = (ctx: CheckContext) => deploymentSet(ctx, "pg", setSize, bodyFor);

function bodyFor(name: string, source: Source, withImage = false): Json {
  const image = { image_uri: `registry.example.com/conformance/app:${containerImageTag}` };
  // self-hosted plain deployments carry an image without a tag so only the container one has image_version
  const revision =
    source === "internal_template" ? {} : withImage ? image : { image_uri: "registry.example.com/conformance/plain" };
  return { name, source, source_config: {}, source_revision_config: revision, secrets: [] };
}

async function rejects(ctx: CheckContext, query: Record<string, string | number | undefined>, want: "4xx" | 422) {
  const ex = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
  const label = `list deployments with ${new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString()}`;
  if (want === "4xx") expect4xx(ex, label);
  else expectStatus(ex, 422, label);
  return ex;
}

/** The page a list without limit returns, once at least 21 deployments exist (created unless --read-only). */
async function defaultPage(ctx: CheckContext) {
  const { resources } = await listDeployments(ctx, { limit: 21 });
  if (resources.length < 21) {
    if (ctx.config.readOnly) ctx.skip("fewer than 21 deployments exist and --read-only forbids creating more");
    for (let i = resources.length; i < 21; i++) await createDeployment(ctx, { label: "fill" });
  }
  return listDeployments(ctx);
}

/** Walks a query by the returned offset, the first request without offset (its default 0): every id seen. */
async function walkFromDefaultOffset(ctx: CheckContext, query: Json, limit: number) {
  const ids: string[] = [];
  let offset: number | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await listDeployments(ctx, { ...(query as Record<string, string>), limit, offset });
    ids.push(...page.resources.map((r) => String(r.id)));
    if (page.resources.length === 0 || typeof page.offset !== "number" || page.offset <= (offset ?? 0))
      return { ids, last: page.exchange };
    offset = page.offset;
  }
  return { ids, last: undefined };
}

function boundCheck(id: string, query: Record<string, number>, rule: string): Check {
  const [[k, v]] = Object.entries(query) as [[string, number]];
  return {
    id,
    level: "MUST",
    tags: [...pagination, "validation"],
    statement: `${k}=${v} is rejected with a 4xx`,
    specRef: `interface-spec: 5. List deployments, ${rule}; Limits`,
    needs: [],
    async run(ctx) {
      await rejects(ctx, query, "4xx");
    },
  };
}

export const deploymentListChecks: Check[] = [
  {
    id: "DEP-LIST-001",
    level: "MUST",
    tags,
    statement: "Listing deployments without parameters succeeds (2xx) with a page {resources, offset}",
    specRef: "interface-spec: 5. List deployments; Paginated deployment list",
    needs: [],
    async run(ctx) {
      const ex = await ctx.send({ method: "GET", path: paths.deployments, operation: "listDeployments" });
      expect2xx(ex, "list deployments");
      const page = jsonObject(ex, "list deployments");
      ensure(
        Array.isArray(page.resources) && typeof page.offset === "number",
        "the page lacks resources or offset",
        ex,
      );
    },
  },
  {
    id: "DEP-LIST-002",
    level: "SHOULD",
    tags,
    statement: "Listing deployments answers 200",
    specRef: "D-06 (lists 200)",
    needs: [],
    async run(ctx) {
      expectStatus(
        await ctx.send({ method: "GET", path: paths.deployments, operation: "listDeployments" }),
        200,
        "list deployments",
      );
    },
  },
  {
    id: "DEP-LIST-003",
    level: "MUST",
    tags: pagination,
    statement: "Without limit, at most 20 deployments are returned, and at least one when more exist",
    specRef: "interface-spec: 5. List deployments, limit default 20",
    needs: ["state"],
    async run(ctx) {
      // limit is a maximum (interface spec): a server may return fewer; exactly 20 is D-09 (DEP-LIST-037)
      const { exchange, resources: page } = await defaultPage(ctx);
      ensure(
        page.length >= 1 && page.length <= 20,
        `returned ${page.length} deployments, expected 1 to 20 (the default limit 20; at least 21 exist)`,
        exchange,
      );
    },
  },
  boundCheck("DEP-LIST-004", { limit: 0 }, "limit range 1 to 100"),
  boundCheck("DEP-LIST-005", { limit: 101 }, "limit range 1 to 100"),
  boundCheck("DEP-LIST-006", { limit: -1 }, "limit range 1 to 100"),
  boundCheck("DEP-LIST-007", { offset: -1 }, "offset at least 0"),
  {
    id: "DEP-LIST-008",
    level: "SHOULD",
    tags: [...pagination, "validation", "errors"],
    statement: "limit=0, limit=101, limit=-1 and offset=-1 answer 422 with an errors entry naming the parameter",
    specRef: "D-16 (422 with errors[{parameter}])",
    needs: ["server"],
    async run(ctx) {
      for (const q of [{ limit: 0 }, { limit: 101 }, { limit: -1 }, { offset: -1 }]) {
        const ex = await rejects(ctx, q, 422);
        const param = Object.keys(q)[0]!;
        const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? (ex.json.errors as Json[]) : [];
        ensure(
          errors.some((e) => e.parameter === param),
          `the problem has no errors entry with parameter "${param}"`,
          ex,
        );
      }
    },
  },
  {
    id: "DEP-LIST-009",
    level: "MUST",
    tags: pagination,
    statement: "limit=1 returns at most 1 deployment and limit=100 is accepted with at most 100",
    specRef:
      'interface-spec: 5. List deployments, limit "Maximum number of resources to return. Range 1 to 100 inclusive"',
    needs: ["state"],
    async run(ctx) {
      const one = await listDeployments(ctx, { limit: 1 });
      ensure(one.resources.length <= 1, `limit=1 returned ${one.resources.length} deployments`, one.exchange);
      const hundred = await listDeployments(ctx, { limit: 100 });
      ensure(
        hundred.resources.length <= 100,
        `limit=100 returned ${hundred.resources.length} deployments`,
        hundred.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-010",
    level: "MUST",
    tags: pagination,
    statement:
      "Walking pages of 3 (name_contains the run's stem), each request passing the returned offset, yields every created deployment exactly once",
    specRef: 'interface-spec: Paginated deployment list, offset "Pass this value as offset in the next request"',
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const walk = await walkDeployments(ctx, { name_contains: set.stem }, 3, 50);
      const last = walk.exchanges[walk.exchanges.length - 1];
      for (const id of set.ids) {
        const n = walk.ids.filter((x) => x === id).length;
        ensure(n === 1, `deployment ${id} was seen ${n} times over ${walk.pages} pages (expected once)`, last);
      }
      ensure(
        walk.ids.length === set.ids.length,
        `the walk returned ${walk.ids.length} deployments, expected ${set.ids.length}`,
        last,
      );
    },
  },
  {
    id: "DEP-LIST-011",
    level: "MUST",
    tags: pagination,
    statement:
      "Walking the whole unfiltered list (pages of 50) sees no deployment twice and finds every deployment this run created",
    specRef: "interface-spec: Paginated deployment list, offset",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const walk = await walkDeployments(ctx, {}, 50, 400);
      const last = walk.exchanges[walk.exchanges.length - 1];
      const seen = new Map<string, number>();
      for (const id of walk.ids) seen.set(id, (seen.get(id) ?? 0) + 1);
      const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      ensure(twice.length === 0, `deployments seen more than once: ${twice.slice(0, 5).join(", ")}`, last);
      const missing = set.ids.filter((id) => !seen.has(id));
      ensure(missing.length === 0, `deployments of this run not seen: ${missing.join(", ")}`, last);
    },
  },
  {
    id: "DEP-LIST-012",
    level: "SHOULD",
    tags: pagination,
    statement: "The returned offset is the request's offset plus the number of resources returned",
    specRef: "D-09 (returned offset)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      for (const [offset, limit] of [
        [0, 3],
        [2, 3],
        [5, 3],
        [0, 100],
      ] as const) {
        const page = await listDeployments(ctx, { name_contains: set.stem, offset, limit });
        ensure(
          page.offset === offset + page.resources.length,
          `offset=${offset} limit=${limit} returned ${page.resources.length} resources and offset ${page.offset}, expected ${offset + page.resources.length}`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "DEP-LIST-013",
    level: "SHOULD",
    tags: pagination,
    statement: "A request past the end returns no resources and the same offset",
    specRef: "D-09 (past the end)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      for (const offset of [setSize, setSize + 1, 1000]) {
        const page = await listDeployments(ctx, { name_contains: set.stem, offset, limit: 5 });
        ensure(
          page.resources.length === 0,
          `offset=${offset} past the end returned ${page.resources.length} resources`,
          page.exchange,
        );
        ensure(page.offset === offset, `offset=${offset} past the end returned offset ${page.offset}`, page.exchange);
      }
    },
  },
  {
    id: "DEP-LIST-014",
    level: "SHOULD",
    tags: pagination,
    statement: "Pages hold exactly limit resources until the last, which is shorter",
    specRef: "D-09 (a page shorter than limit is the last)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const first = await listDeployments(ctx, { name_contains: set.stem, limit: 5 });
      ensure(first.resources.length === 5, `the first page of 5 holds ${first.resources.length}`, first.exchange);
      const second = await listDeployments(ctx, { name_contains: set.stem, limit: 5, offset: first.offset });
      ensure(
        second.resources.length === setSize - 5,
        `the second page holds ${second.resources.length}, expected ${setSize - 5}`,
        second.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-015",
    level: "SHOULD",
    tags: [...tags, "ordering"],
    statement: "Deployments are listed newest first (created_at descending, then id descending)",
    specRef: "D-08 (deployments newest first)",
    needs: ["state"],
    async run(ctx) {
      if (!ctx.config.readOnly) {
        // the run's deployments, created one after another: later ones never carry an earlier created_at
        const set = await pageSet(ctx);
        const page = await listDeployments(ctx, { deployment_ids: set.ids.join(","), limit: 100 });
        const byId = new Map(page.resources.map((r) => [String(r.id), instant(r.created_at)]));
        for (let i = 1; i < set.ids.length; i++) {
          const earlier = byId.get(set.ids[i - 1]!);
          const later = byId.get(set.ids[i]!);
          ensure(
            earlier !== undefined && later !== undefined && earlier <= later,
            `deployment ${set.ids[i]} was created after ${set.ids[i - 1]} but carries an earlier created_at`,
            page.exchange,
          );
        }
      }
      const page = await listDeployments(ctx, { limit: 100 });
      for (let i = 1; i < page.resources.length; i++) {
        const a = page.resources[i - 1]!;
        const b = page.resources[i]!;
        const ta = instant(a.created_at) ?? 0n;
        const tb = instant(b.created_at) ?? 0n;
        ensure(
          ta > tb || (ta === tb && String(a.id) > String(b.id)),
          `resource ${i} (${String(b.created_at)}) is not older than resource ${i - 1} (${String(a.created_at)})`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "DEP-LIST-016",
    level: "MUST",
    tags: pagination,
    statement:
      "offset defaults to 0: a walk by the returned offset whose first request has no offset returns every deployment asked for by deployment_ids",
    specRef: "interface-spec: 5. List deployments, offset default 0",
    needs: ["write", "state"],
    async run(ctx) {
      // which deployments come first is not stated (open point 3): the walk as a whole is what the default decides
      const set = await pageSet(ctx);
      const { ids, last } = await walkFromDefaultOffset(ctx, { deployment_ids: set.ids.join(",") }, 3);
      const missing = set.ids.filter((id) => !ids.includes(id));
      ensure(
        missing.length === 0,
        `a walk of deployment_ids (${set.ids.length}) with limit=3 starting without offset misses ${missing.join(", ")}`,
        last,
      );
    },
  },
  {
    id: "DEP-LIST-020",
    level: "MUST",
    tags: [...filters, "name_contains"],
    statement: "name_contains returns the deployments whose name contains the value, and only those",
    specRef: 'interface-spec: 5. List deployments, name_contains "Filter by deployment name"',
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      // a walk, not one page: limit is only a maximum, a target may answer shorter pages (interface spec)
      const walk = await walkDeployments(ctx, { name_contains: set.stem }, 100, 20);
      const names = walk.records.map((r) => String(r.name));
      const last = walk.exchanges.at(-1);
      const foreign = names.filter((n) => !n.toLowerCase().includes(set.stem.toLowerCase()));
      ensure(
        foreign.length === 0,
        `names not containing "${set.stem}" were returned: ${foreign.slice(0, 5).join(", ")}`,
        last,
      );
      const missing = set.names.filter((n) => !names.includes(n));
      ensure(missing.length === 0, `matching deployments not returned: ${missing.join(", ")}`, last);
    },
  },
  {
    id: "DEP-LIST-021",
    level: "SHOULD",
    tags: [...filters, "name_contains"],
    statement: "name_contains is case-insensitive",
    specRef: "D-39 to D-45 (name_contains case-insensitive substring)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const page = await listDeployments(ctx, { name_contains: set.stem.toUpperCase(), limit: 100 });
      ensure(
        page.resources.length === setSize,
        `name_contains=${set.stem.toUpperCase()} returned ${page.resources.length} deployments, expected ${setSize}`,
        page.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-022",
    level: "MUST",
    tags: [...filters, "status"],
    statement:
      "status=<value> returns only deployments in that status (a value the filter refuses is no verdict: the values it takes are not stated)",
    specRef: 'interface-spec: 5. List deployments, status "Filter by deployment status"',
    needs: ["state"],
    async run(ctx) {
      await judgeEach(ctx, ["READY", "AWAITING_DATABASE", "UNKNOWN"], async (status) => {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query: { status, limit: 100 },
          operation: "listDeployments",
        });
        noVerdictWhenRefused(ctx, ex, `status=${status}`, statusValuesJudgedBy);
        expect2xx(ex, `list deployments with status=${status}`);
        const resources = (jsonObject(ex, "list deployments").resources ?? []) as Json[];
        const wrong = resources.filter((r) => r.status !== status);
        ensure(
          wrong.length === 0,
          `status=${status} returned ${wrong.length} deployments in other states (${[...new Set(wrong.map((r) => r.status))].join(", ")})`,
          ex,
        );
      });
    },
  },
  {
    id: "DEP-LIST-023",
    level: "SHOULD",
    tags: [...filters, "status"],
    statement: "status takes a comma-separated list (a deployment matches any) and an unknown status answers 422",
    specRef: "D-39 to D-45 (status comma-separated; unknown value 422)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      // a new deployment is AWAITING_DATABASE, then READY (D-53): asking for both (and one more) finds every one
      const statuses = "AWAITING_DATABASE,READY,UNUSED";
      const page = await listDeployments(ctx, { name_contains: set.stem, status: statuses, limit: 100 });
      ensure(
        page.resources.length === setSize,
        `status=${statuses} returned ${page.resources.length} of the ${setSize} new deployments, which are in one of those states`,
        page.exchange,
      );
      const other = await listDeployments(ctx, {
        name_contains: set.stem,
        status: "AWAITING_DELETE,UNUSED",
        limit: 100,
      });
      ensure(
        other.resources.length === 0,
        `status=AWAITING_DELETE,UNUSED returned ${other.resources.length} deployments of this run, none of which is in those states`,
        other.exchange,
      );
      await rejects(ctx, { status: "RUNNING" }, 422);
    },
  },
  {
    id: "DEP-LIST-024",
    level: "MUST",
    tags: [...filters, "deployment_ids"],
    statement: "deployment_ids (comma-separated) returns exactly the listed deployments",
    specRef: 'interface-spec: 5. List deployments, deployment_ids "Comma-separated list of deployment IDs"',
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const want = [set.ids[1]!, set.ids[4]!];
      // a walk, not one page: limit is only a maximum, a target may answer shorter pages (interface spec)
      const walk = await walkDeployments(ctx, { deployment_ids: want.join(",") }, 100, 20);
      const got = [...new Set(walk.ids)].sort();
      ensure(
        JSON.stringify(got) === JSON.stringify([...want].sort()),
        `deployment_ids=${want.join(",")} returned [${got.join(", ")}]`,
        walk.exchanges.at(-1),
      );
    },
  },
  {
    id: "DEP-LIST-025",
    level: "SHOULD",
    tags: [...filters, "deployment_ids"],
    statement: "A malformed id in deployment_ids answers 422; an unknown id matches nothing",
    specRef: "D-39 to D-45 (deployment_ids comma-separated UUIDs; malformed 422)",
    needs: ["state"],
    async run(ctx) {
      await rejects(ctx, { deployment_ids: "not-a-uuid" }, 422);
      const page = await listDeployments(ctx, { deployment_ids: "00000000-0000-4000-8000-0000000000cf" });
      ensure(page.resources.length === 0, `an unknown id matched ${page.resources.length} deployments`, page.exchange);
    },
  },
  {
    id: "DEP-LIST-026",
    level: "SHOULD",
    tags: [...filters, "tag_value_ids"],
    statement: "A non-empty tag_value_ids matches nothing; a malformed one answers 422",
    specRef: "D-39 to D-45 (tags are not part of this interface)",
    needs: ["state"],
    async run(ctx) {
      const page = await listDeployments(ctx, {
        tag_value_ids: "00000000-0000-4000-8000-0000000000cf,00000000-0000-4000-8000-0000000000ce",
      });
      ensure(page.resources.length === 0, `tag_value_ids matched ${page.resources.length} deployments`, page.exchange);
      await rejects(ctx, { tag_value_ids: "nope" }, 422);
    },
  },
  {
    id: "DEP-LIST-027",
    level: "MUST",
    tags: [...filters, "image_version"],
    statement: "image_version=<v> returns only deployments whose image_version is v",
    specRef: 'interface-spec: 5. List deployments, image_version "Filter by image version"',
    needs: ["state"],
    async run(ctx) {
      for (const v of [containerImageTag, "0.0.0-cf-none"]) {
        const page = await listDeployments(ctx, { image_version: v, limit: 100 });
        const wrong = page.resources.filter((r) => r.image_version !== v);
        ensure(
          wrong.length === 0,
          `image_version=${v} returned ${wrong.length} deployments with another image_version`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "DEP-LIST-028",
    level: "SHOULD",
    tags: [...filters, "image_version"],
    statement:
      "image_version matches the container deployment of this run (tag of its image_uri) and none of its other deployments",
    specRef: "D-39 to D-45 (image_version exact match; set from the image tag)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const page = await listDeployments(ctx, {
        image_version: containerImageTag,
        deployment_ids: [...set.ids, set.containerId].join(","),
        limit: 100,
      });
      const got = page.resources.map((r) => String(r.id));
      ensure(
        got.length === 1 && got[0] === set.containerId,
        `image_version=${containerImageTag} among this run's deployments returned [${got.join(", ")}], expected only ${set.containerId}`,
        page.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-029",
    level: "MUST",
    tags: [...filters, "deployment_type", "validation"],
    statement: "deployment_type accepts dev_free, dev and prod (2xx) and rejects another value with a 4xx",
    specRef: 'interface-spec: 5. List deployments, deployment_type "Allowed: dev_free, dev, prod"',
    needs: [],
    async run(ctx) {
      for (const t of ["dev_free", "dev", "prod"]) await listDeployments(ctx, { deployment_type: t });
      await rejects(ctx, { deployment_type: "staging" }, "4xx");
    },
  },
  {
    id: "DEP-LIST-030",
    level: "SHOULD",
    tags: [...filters, "deployment_type"],
    statement:
      "Deployments created through the interface are dev: deployment_type=dev includes them, prod and dev_free do not",
    specRef: "D-39 to D-45 (deployment_type: every deployment created through this interface is dev)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const dev = await listDeployments(ctx, { name_contains: set.stem, deployment_type: "dev", limit: 100 });
      ensure(
        dev.resources.length === setSize,
        `deployment_type=dev returned ${dev.resources.length} of ${setSize}`,
        dev.exchange,
      );
      for (const t of ["prod", "dev_free"]) {
        const other = await listDeployments(ctx, { name_contains: set.stem, deployment_type: t, limit: 100 });
        ensure(
          other.resources.length === 0,
          `deployment_type=${t} returned ${other.resources.length} of this run's dev deployments`,
          other.exchange,
        );
      }
    },
  },
  {
    id: "DEP-LIST-031",
    level: "MUST",
    tags: [...filters, "remote_reconciled"],
    statement: "remote_reconciled=true and remote_reconciled=false are accepted (2xx)",
    specRef: "interface-spec: 5. List deployments, remote_reconciled (boolean)",
    needs: [],
    async run(ctx) {
      await listDeployments(ctx, { remote_reconciled: true });
      await listDeployments(ctx, { remote_reconciled: false });
    },
  },
  {
    id: "DEP-LIST-032",
    level: "SHOULD",
    tags: [...filters, "remote_reconciled"],
    statement: "Deployments without a listener are not remote-reconciled: false includes them, true does not",
    specRef: "D-39 to D-45 (remote_reconciled true exactly when listener_id is set)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const no = await listDeployments(ctx, { name_contains: set.stem, remote_reconciled: false, limit: 100 });
      ensure(
        no.resources.length === setSize,
        `remote_reconciled=false returned ${no.resources.length} of ${setSize}`,
        no.exchange,
      );
      const yes = await listDeployments(ctx, { name_contains: set.stem, remote_reconciled: true, limit: 100 });
      ensure(
        yes.resources.length === 0,
        `remote_reconciled=true returned ${yes.resources.length} deployments without a listener`,
        yes.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-033",
    level: "SHOULD",
    tags: [...filters, "combinations"],
    statement: "Filters combine with AND (name_contains with deployment_ids, status, image_version and pagination)",
    specRef: "D-39 to D-45 (all filters combine with AND)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const both = await listDeployments(ctx, {
        name_contains: set.stem,
        deployment_ids: [set.ids[0]!, set.containerId].join(","),
        limit: 100,
      });
      const got = both.resources.map((r) => String(r.id));
      ensure(
        got.length === 1 && got[0] === set.ids[0],
        `name_contains AND deployment_ids returned [${got.join(", ")}], expected [${set.ids[0]}]`,
        both.exchange,
      );
      const img = await listDeployments(ctx, { name_contains: set.stem, image_version: containerImageTag, limit: 100 });
      ensure(
        img.resources.length === 0,
        `name_contains=${set.stem} AND image_version=${containerImageTag} returned ${img.resources.length}, expected 0`,
        img.exchange,
      );
      const paged = await listDeployments(ctx, {
        name_contains: set.stem,
        deployment_ids: set.ids.slice(0, 4).join(","),
        limit: 2,
        offset: 2,
      });
      ensure(
        paged.resources.length === 2 && paged.resources.every((r) => set.ids.slice(0, 4).includes(String(r.id))),
        `filters with limit=2 offset=2 returned [${paged.resources.map((r) => r.id).join(", ")}]`,
        paged.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-034",
    level: "SHOULD",
    tags: [...filters, "validation"],
    statement:
      "Malformed parameters answer 422: non-integer limit/offset (including hex and exponent notation), non-boolean remote_reconciled, unknown deployment_type",
    specRef: "D-16 (422 when a request breaks the schema)",
    needs: ["server"],
    async run(ctx) {
      // "0x10" and "1e1" are numbers to JavaScript but not integers in a query string
      for (const q of [
        { limit: "ten" },
        { offset: "1.5" },
        { limit: "0x10" },
        { offset: "1e1" },
        { remote_reconciled: "maybe" },
        { deployment_type: "staging" },
      ])
        await rejects(ctx, q, 422);
    },
  },
  {
    id: "DEP-LIST-035",
    level: "MUST",
    tags: [...filters, "status"],
    statement:
      "status=<s> returns a deployment whose status is s (judged while its status holds still: read, walk, read again, up to --settle-ms)",
    specRef: 'interface-spec: 5. List deployments, status "Filter by deployment status"',
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "stfilter" });
      const id = String(record.id);
      await whileStatusesHold(ctx, [id], async (statuses) => {
        const status = statuses.get(id);
        if (typeof status !== "string") return ctx.skip(`deployment ${id} is not listed by its id`);
        // the values the status filter takes are not stated (interface spec, open point 2): a refusal is no verdict
        const probe = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query: { status, limit: 1 },
          operation: "listDeployments",
        });
        noVerdictWhenRefused(ctx, probe, `status=${status}`, statusValuesJudgedBy);
        const walk = await walkDeployments(ctx, { status }, 100);
        ensure(
          walk.ids.includes(id),
          `status=${status} does not return deployment ${id}, whose status is ${status} before and after the walk (${walk.ids.length} returned over ${walk.pages} pages)`,
          walk.exchanges.at(-1),
        );
      });
    },
  },
  {
    id: "DEP-LIST-036",
    level: "MUST",
    tags: [...filters, "image_version"],
    statement: "image_version=<v> returns a deployment whose image_version is v (v as the server set it)",
    specRef: 'interface-spec: 5. List deployments, image_version "Filter by image version"',
    needs: ["write", "state"],
    async run(ctx) {
      const source: Source = ctx.config.hosting === "cloud" ? "internal_container" : "external_container";
      const tag = `${ctx.prefix}only`;
      const body = bodyFor(ctx.name("ivfilter"), source);
      body.source_revision_config = { image_uri: `registry.example.com/conformance/app:${tag}` };
      const { record } = await createDeployment(ctx, { source, body });
      const v = record.image_version;
      if (typeof v !== "string") ctx.skip(`the server set no image_version (${JSON.stringify(v)}) for ${source}`);
      const walk = await walkDeployments(ctx, { image_version: String(v) }, 100);
      ensure(
        walk.ids.includes(String(record.id)),
        `image_version=${v} does not return deployment ${String(record.id)}, whose image_version is ${v}`,
        walk.exchanges.at(-1),
      );
    },
  },
  {
    id: "DEP-LIST-037",
    level: "SHOULD",
    tags: pagination,
    statement: "Without limit, exactly 20 deployments are returned when more exist",
    specRef: "D-09 (a page shorter than limit is the last), D-29 (limit default 20)",
    needs: ["state"],
    async run(ctx) {
      const { exchange, resources: page } = await defaultPage(ctx);
      ensure(
        page.length === 20,
        `returned ${page.length} deployments, expected the default limit 20 (at least 21 exist)`,
        exchange,
      );
    },
  },
  {
    id: "DEP-LIST-038",
    level: "SHOULD",
    tags: pagination,
    statement: "A list without offset equals the list with offset=0, deployment by deployment",
    specRef: "D-08 (a total order: identical requests answer the same page), D-29 (offset default 0)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const a = await listDeployments(ctx, { name_contains: set.stem, limit: 4 });
      const b = await listDeployments(ctx, { name_contains: set.stem, limit: 4, offset: 0 });
      const ids = (p: { resources: Json[] }) => p.resources.map((r) => r.id).join(",");
      ensure(ids(a) === ids(b), `without offset: [${ids(a)}]; with offset=0: [${ids(b)}]`, a.exchange);
    },
  },
  {
    id: "DEP-LIST-039",
    level: "SHOULD",
    tags: [...filters, "status"],
    statement:
      "status takes each of the five values of the status enum (2xx), alone and together with every other list parameter",
    specRef: "D-07 (the status filter takes the five status values)",
    needs: [],
    async run(ctx) {
      const id = "00000000-0000-4000-8000-0000000000cf";
      const others = {
        name_contains: "cf",
        remote_reconciled: "false",
        tag_value_ids: id,
        image_version: "1.0.0",
        deployment_type: "dev",
        deployment_ids: id,
        limit: 5,
        offset: 1,
      };
      for (const status of ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"]) {
        await listDeployments(ctx, { status });
        await listDeployments(ctx, { ...others, status });
      }
    },
  },
];
