/** Checks of operation 5 (interface-spec: List deployments, Paginated deployment list, Limits; D-08, D-09, D-39 to D-45). */

import { randomUUID } from "node:crypto";
import { deploymentStatuses, deploymentTypes } from "../../contract/index.js";
import { ensure, expect2xx, expect4xx, expectStatus, isObject, jsonObject } from "../check-kit/assert.js";
import {
  createDeployment,
  deploymentSet,
  instant,
  type Json,
  listDeployments,
  paths,
  walkDeployments,
} from "../check-kit/helpers.js";
import { whileStatusesHold } from "../check-kit/settle.js";
import { perSourceRules } from "../model/body-source-rules.js";
import { containerImageTag, deploymentBody, plainSource, type Source, sourcesFor } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal, judgeEach, noVerdictWhenRefused, statusValuesJudgedBy } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";

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

const semanticTags = ["semantics"];
const semanticList = [...semanticTags, "listDeployments"];
const edgeTags = ["edge"];
const edgeList = [...edgeTags, "listDeployments"];

/** The set of this suite file: plain deployments of the hosting kind, and one container deployment with an image tag. */
const semSet = (ctx: CheckContext) => deploymentSet(ctx, "sm", setSize, (name, source) => deploymentBody(name, source));

const idsOf = (resources: Json[]) => resources.map((r) => String(r.id));

/** Walks every page of a filter (at most 100 pages); returns the records in the order seen, the last exchange, and whether the cap cut it. */
async function walk(ctx: CheckContext, query: Json, limit: number) {
  const { records, exchanges, pages } = await walkDeployments(ctx, query as Record<string, string>, limit, 100);
  return { records, last: exchanges.at(-1)!, capped: pages >= 100 };
}

/**
 * Fails unless the pages at offsets 1 to 3 (limit 2) are slices of the whole filtered list. A status may change
 * meanwhile (D-12), so a round counts only when the whole list is the same before and after it; up to 20 rounds.
 */
async function offsetSlices(ctx: CheckContext, query: Json): Promise<void> {
  const q = query as Record<string, string>;
  const label = new URLSearchParams(q).toString();
  for (let round = 0; round < 20; round++) {
    const before = idsOf((await listDeployments(ctx, { ...q, limit: 100 })).resources);
    const pages = [];
    for (const offset of [1, 2, 3])
      pages.push({ offset, page: await listDeployments(ctx, { ...q, limit: 2, offset }) });
    const after = idsOf((await listDeployments(ctx, { ...q, limit: 100 })).resources);
    if (before.join(",") !== after.join(",")) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    for (const { offset, page } of pages) {
      const got = idsOf(page.resources).join(",");
      const want = before.slice(offset, offset + 2).join(",");
      ensure(
        got === want,
        `${label} limit=2 offset=${offset} returned [${got}], expected the slice [${want}] of the whole list`,
        page.exchange,
      );
    }
    return;
  }
  ctx.skip(`the list of ${label} kept changing over 20 rounds`);
}

/** The state fields of a record that contradict its status (D-11, D-12, D-53). */
function stateProblems(r: Json): string[] {
  const out: string[] = [];
  if (typeof r.latest_revision_id !== "string")
    out.push(`latest_revision_id is ${JSON.stringify(r.latest_revision_id)}`);
  if (r.status === "AWAITING_DATABASE" && r.active_revision_id !== null)
    out.push(`AWAITING_DATABASE with active_revision_id ${JSON.stringify(r.active_revision_id)}`);
  if (r.status === "READY" && r.active_revision_id !== r.latest_revision_id)
    out.push(
      `READY with active_revision_id ${JSON.stringify(r.active_revision_id)} ≠ latest ${JSON.stringify(r.latest_revision_id)}`,
    );
  return out;
}

/**
 * A page of `status=<status>` and its records; no verdict when the filter refuses the value, since the values it takes
 * are not stated (interface spec, open point 2).
 */
async function statusPage(
  ctx: CheckContext,
  status: string,
  limit = 100,
): Promise<{ ex: Exchange; resources: Json[] }> {
  const ex = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query: { status, limit },
    operation: "listDeployments",
  });
  noVerdictWhenRefused(ctx, ex, `status=${status}`, statusValuesJudgedBy);
  expect2xx(ex, `list deployments with status=${status}`);
  return { ex, resources: (jsonObject(ex, "list deployments").resources ?? []) as Json[] };
}

/** Sends a list request with a raw query string (values exactly as written, e.g. a space or an empty value). */
function listRaw(ctx: CheckContext, query: string): Promise<Exchange> {
  return ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
}

/** Values of limit and offset that are no integer under any reading. */
const nonIntegers = ["2.5", "ten", "0.5", "1,5"];
/** Valid offsets a 32-bit counter (2^31, 2^32 + 5) or a 64-bit one (2^63, 10^30) cannot hold. */
const hugeOffsets = ["2147483648", "4294967301", "9223372036854775808", "1000000000000000000000000000000"];
/** Integer values written in a notation other than plain decimal digits (or not written at all). */
const oddNotations = ["1.0", "1e1", "%2B1", "%201", "1%20", "0x10", ""];

/** Ensures at least `n` (at most 200) deployments are listed in the caller's tenant, creating the rest when allowed. */
async function atLeast(ctx: CheckContext, n: number): Promise<void> {
  let have = 0;
  for (const offset of [0, 100]) {
    const page = await listDeployments(ctx, { limit: 100, offset });
    have += page.resources.length;
    if (page.resources.length < 100) break;
  }
  if (have >= n) return;
  if (ctx.config.readOnly) ctx.skip(`fewer than ${n} deployments exist and --read-only forbids creating more`);
  for (let i = have; i < n; i++) await createDeployment(ctx, { label: "fill" });
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
    statement:
      "name_contains returns the deployments whose name contains the value, and only those; an empty value, when answered 2xx, returns every deployment deployment_ids names",
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
      // every name contains the empty value: a target may refuse it, but one it answers finds every deployment named
      const empty = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { deployment_ids: set.ids.join(","), name_contains: "", limit: 100 },
        operation: "listDeployments",
        noValidate: true,
      });
      if (isRefusal(empty)) return ctx.note(`name_contains= (empty) refused with ${empty.response.status}`);
      expect2xx(empty, "list deployments with name_contains= (empty)");
      const listed = new Set(((jsonObject(empty, "list deployments").resources as Json[]) ?? []).map((r) => r.id));
      const left = set.ids.filter((id) => !listed.has(id));
      ensure(
        left.length === 0,
        `name_contains= (empty, contained in every name) with deployment_ids of ${set.ids.length} left out ${left.join(", ")}`,
        empty,
      );
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
        const { ex, resources } = await statusPage(ctx, status);
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
    id: "DEP-LIST-046",
    level: "MUST",
    tags: [...filters, "status", "createDeployment"],
    statement:
      "status=AWAITING_DATABASE returns only deployments in that status while some move on: read back to back from the create of three new deployments, made 35 ms apart, until the filter lists none of them (at most --settle-ms), no answer holds a deployment in another status",
    specRef: 'interface-spec: 5. List deployments, status "Filter by deployment status"',
    needs: ["write", "state"],
    async run(ctx) {
      // when provisioning ends is the target's: reads without a pause between them meet a store that filters on a
      // status written down later than the one it answers (a periodic sweep); creates 35 ms apart end provisioning
      // at three phases of such a sweep, so one of them lands early in its period
      const ids: unknown[] = [];
      let lastCreate = 0;
      const deadline = Date.now() + ctx.config.settleMs;
      for (let reads = 0; reads < 2000 && Date.now() < deadline; reads++) {
        if (ids.length < 3 && Date.now() - lastCreate >= 35) {
          ids.push((await createDeployment(ctx, { label: "leaving" })).record.id);
          lastCreate = Date.now();
        }
        const { ex, resources } = await statusPage(ctx, "AWAITING_DATABASE");
        const wrong = resources.filter((r) => r.status !== "AWAITING_DATABASE");
        ensure(
          wrong.length === 0,
          `status=AWAITING_DATABASE, read ${reads + 1} after the first of ${ids.length} creates, returned ${wrong.map((r) => `${String(r.id)} in ${String(r.status)}`).join(", ")}`,
          ex,
        );
        if (ids.length === 3 && !resources.some((r) => ids.includes(r.id))) return;
      }
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
      for (const t of deploymentTypes) await listDeployments(ctx, { deployment_type: t });
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
        await statusPage(ctx, status, 1);
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
      for (const status of deploymentStatuses) {
        await listDeployments(ctx, { status });
        await listDeployments(ctx, { ...others, status });
      }
    },
  },
  {
    id: "EDGE-001",
    level: "MUST",
    tags: [...edgeList, "validation", "pagination"],
    statement: `limit and offset values that are no integer (${nonIntegers.join(", ")}) are rejected with a 4xx`,
    specRef: "interface-spec: 5. List deployments (limit integer, offset integer); Errors (constraints)",
    needs: ["server"],
    async run(ctx) {
      for (const param of ["limit", "offset"])
        for (const v of nonIntegers)
          expect4xx(await listRaw(ctx, `${param}=${encodeURIComponent(v)}`), `list deployments with ${param}=${v}`);
    },
  },
  {
    id: "DEP-LIST-044",
    level: "MUST",
    tags: [...pagination, "edge"],
    statement: `offset values beyond every 32- and 64-bit integer (${hugeOffsets.join(", ")}) get a 2xx with no resources, or a 4xx; never a 5xx`,
    specRef:
      "interface-spec: 5. List deployments (offset integer, at least 0, no maximum); Limits (offset: minimum 0); a 5xx answers no valid request",
    needs: ["server"],
    async run(ctx) {
      for (const offset of hugeOffsets) {
        const exchange = await listRaw(ctx, `offset=${offset}&limit=1`);
        const { status } = exchange.response;
        ensure(status < 500, `offset=${offset} answered ${status}, a server error for a valid offset`, exchange);
        if (status >= 300) {
          expect4xx(exchange, `list deployments with offset=${offset}`);
          continue;
        }
        const resources = jsonObject(exchange, `list deployments with offset=${offset}`).resources;
        ensure(
          Array.isArray(resources) && resources.length === 0,
          `offset=${offset} is past every deployment, but the page holds ${Array.isArray(resources) ? resources.length : "no array of"} resources`,
          exchange,
        );
      }
    },
  },
  {
    id: "DEP-LIST-045",
    level: "MUST",
    tags: pagination,
    statement:
      "offset counts records, not pages: under deployment_ids naming 7 deployments, the page at offset k with limit 7, 3 or 2 holds at least one of them while k < 7 and never more than min(limit, 7 - k)",
    specRef:
      'interface-spec: What the service does 3 ("offset pagination"); 5. List deployments (offset "Pagination offset", limit "Maximum number of resources to return")',
    needs: ["write", "state"],
    async run(ctx) {
      const set = await pageSet(ctx);
      const total = set.ids.length;
      for (const limit of [total, 3, 2])
        for (let offset = 0; offset <= total; offset++) {
          const { exchange, resources } = await listDeployments(ctx, {
            deployment_ids: set.ids.join(","),
            limit,
            offset,
          });
          // limit is only a maximum (a target may answer shorter pages), so at least one while any remain
          const most = Math.min(limit, total - offset);
          const least = Math.min(1, most);
          ensure(
            resources.length >= least && resources.length <= most,
            `deployment_ids naming ${total} deployments, limit=${limit}&offset=${offset}: the page holds ${resources.length}, where ${total - offset} remain after skipping ${offset} records (expected ${least === most ? most : `${least} to ${most}`})`,
            exchange,
          );
        }
    },
  },
  {
    id: "EDGE-002",
    level: "SHOULD",
    tags: [...edgeList, "validation", "pagination"],
    statement:
      "limit and offset written other than as plain decimal digits (1.0, 1e1, +1, leading or trailing space, 0x10, empty) answer 422",
    specRef: "D-25, D-29 (422 for a value that breaks the schema; never read leniently)",
    needs: ["server"],
    async run(ctx) {
      for (const param of ["limit", "offset"])
        for (const v of oddNotations)
          expectStatus(
            await listRaw(ctx, `${param}=${v}`),
            422,
            `list deployments with ${param}=${decodeURIComponent(v)}`,
          );
    },
  },
  {
    id: "EDGE-003",
    level: "MUST",
    tags: [...pagination, "edge"],
    statement:
      "At the bounds: with more than 100 deployments, limit=100, 1, 2 and 99 are accepted and return at least one and at most limit deployments, offset=0 is accepted likewise; limit 0, 101, -1 and offset -1 are rejected",
    specRef:
      "interface-spec: 5. List deployments (limit: maximum number to return, 1 to 100 inclusive; offset at least 0); Limits",
    needs: ["state"],
    async run(ctx) {
      await atLeast(ctx, 101);
      // limit is a maximum (interface spec): a server may return fewer; exactly limit is D-09 (EDGE-015)
      for (const k of [100, 1, 2, 99]) {
        const page = await listDeployments(ctx, { limit: k });
        ensure(
          page.resources.length >= 1 && page.resources.length <= k,
          `limit=${k} returned ${page.resources.length} deployments (more than 100 exist)`,
          page.exchange,
        );
      }
      // that offset=0 answers the same page as no offset needs identical requests to answer alike (D-08): EDGE-015
      const zero = await listDeployments(ctx, { limit: 100, offset: 0 });
      ensure(
        zero.resources.length >= 1 && zero.resources.length <= 100,
        `offset=0 returned ${zero.resources.length} deployments (more than 100 exist)`,
        zero.exchange,
      );
      for (const q of ["limit=0", "limit=101", "limit=-1", "offset=-1"])
        expect4xx(await listRaw(ctx, q), `list deployments with ${q}`);
    },
  },
  {
    id: "EDGE-015",
    level: "SHOULD",
    tags: [...pagination, "edge"],
    statement:
      "With more than 100 deployments, limit=100, 1, 2 and 99 return exactly limit deployments, and offset=0 the same page as no offset",
    specRef: "D-08, D-09 (a page shorter than limit is the last; a total order)",
    needs: ["state"],
    async run(ctx) {
      await atLeast(ctx, 101);
      for (const k of [100, 1, 2, 99]) {
        const page = await listDeployments(ctx, { limit: k });
        ensure(
          page.resources.length === k,
          `limit=${k} returned ${page.resources.length} deployments (more than 100 exist)`,
          page.exchange,
        );
      }
      const none = await listDeployments(ctx, { limit: 100 });
      const zero = await listDeployments(ctx, { limit: 100, offset: 0 });
      const ids = (p: { resources: Json[] }) => p.resources.map((r) => String(r.id)).join(",");
      ensure(ids(none) === ids(zero), "offset=0 returns another page than no offset", zero.exchange);
    },
  },
  {
    id: "EDGE-006",
    level: "MUST",
    tags: [...edgeList, "validation", "enum-case", "filters"],
    statement: "deployment_type in another letter case (DEV, Prod, Dev_Free) is rejected with a 4xx",
    specRef: 'interface-spec: 5. List deployments, deployment_type "Allowed: dev_free, dev, prod"',
    needs: ["server"],
    async run(ctx) {
      for (const v of ["DEV", "Prod", "Dev_Free"])
        expect4xx(await listRaw(ctx, `deployment_type=${v}`), `deployment_type=${v}`);
    },
  },
  {
    id: "EDGE-007",
    level: "SHOULD",
    tags: [...edgeList, "validation", "enum-case", "filters", "status"],
    statement: "A status filter value in another letter case (ready, Awaiting_Database) answers 422",
    specRef: "D-07 (the five status values; an unknown value is 422)",
    needs: ["server"],
    async run(ctx) {
      for (const v of ["ready", "Awaiting_Database", "READY,unused"])
        expectStatus(await listRaw(ctx, `status=${v}`), 422, `status=${v}`);
    },
  },
  {
    id: "EDGE-013",
    level: "MUST",
    tags: [...edgeList, "filters"],
    statement:
      "Every documented list parameter whose values are stated is accepted (2xx) with a well-formed value: name_contains, remote_reconciled, tag_value_ids, image_version, deployment_type, deployment_ids, limit and offset, alone and together (status: DEP-LIST-039)",
    specRef: "interface-spec: 5. List deployments (query parameters, all optional)",
    needs: [],
    async run(ctx) {
      const id = "00000000-0000-4000-8000-0000000000cf";
      const each = [
        // status is left out: the values it takes are not stated (open point 2); DEP-LIST-039 judges them at SHOULD
        { name_contains: "cf" },
        { remote_reconciled: "false" },
        { tag_value_ids: id },
        { image_version: "1.0.0" },
        { deployment_type: "dev" },
        { deployment_ids: id },
      ];
      for (const q of each) await listDeployments(ctx, q);
      await listDeployments(ctx, Object.assign({ limit: 5, offset: 1 }, ...each));
    },
  },
  {
    id: "SEM-001",
    level: "MUST",
    tags: [...semanticList, "pagination", "filters"],
    statement:
      "offset applies under a filter: a walk by the returned offset (limit 2) under name_contains, under deployment_ids, and under name_contains with each status the set holds (while it holds still) returns every deployment of the set the filters match",
    specRef: "interface-spec: 5. List deployments (offset; each filter); Paginated deployment list",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await semSet(ctx);
      const all = [...set.ids, set.containerId];
      const walkFinds = async (query: Json, want: string[]) => {
        const { records, last, capped } = await walk(ctx, query, 2);
        // a walk cut at its page cap proves nothing about the deployments it did not reach
        if (capped) ctx.skip(`the walk of ${new URLSearchParams(query as Record<string, string>)} did not end`);
        const missing = want.filter((id) => !records.some((r) => r.id === id));
        ensure(
          missing.length === 0,
          `a walk of ${new URLSearchParams(query as Record<string, string>)} with limit=2 misses ${missing.length} of the ${want.length} deployments it matches`,
          last,
        );
      };
      await walkFinds({ name_contains: set.stem }, set.ids);
      await walkFinds({ deployment_ids: all.join(",") }, all);
      // with name_contains the walk stays short whether filters combine with AND or OR (D-45): the set is in both
      await whileStatusesHold(ctx, all, async (statuses) => {
        await judgeEach(ctx, [...new Set(statuses.values())].map(String), async (status) => {
          await statusPage(ctx, status, 1);
          const want = set.ids.filter((id) => statuses.get(id) === status);
          await walkFinds({ name_contains: set.stem, status }, want);
        });
      });
    },
  },
  {
    id: "SEM-002",
    level: "MUST",
    tags: [...semanticList, "filters", "name_contains"],
    statement:
      "name_contains is a literal substring: a part from the middle of names finds them, and %, _, *, ? or . in place of a character match no name lacking that character",
    specRef: 'interface-spec: 5. List deployments, name_contains "Filter by deployment name"',
    needs: ["write", "state"],
    async run(ctx) {
      const set = await semSet(ctx);
      const middle = set.stem.slice(3);
      // a walk, not one page: limit is only a maximum, a target may answer shorter pages (interface spec)
      const found = await walk(ctx, { name_contains: middle }, 100);
      const missing = set.names.filter((n) => !found.records.some((r) => r.name === n));
      ensure(
        missing.length === 0,
        `name_contains=${middle} (the middle of the names) missed ${missing.join(", ")}`,
        found.last,
      );
      for (const wild of ["%", "_", "*", "?", "."]) {
        const needle = `${set.stem.slice(0, 4)}${wild}${set.stem.slice(5)}`;
        const page = await listDeployments(ctx, { name_contains: needle, limit: 100 });
        const wrong = page.resources
          .map((r) => String(r.name))
          .filter((n) => !n.toLowerCase().includes(needle.toLowerCase()));
        ensure(
          wrong.length === 0,
          `name_contains=${needle} returned names not containing it: ${wrong.slice(0, 3).join(", ")}`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "SEM-003",
    level: "MUST",
    tags: [...semanticList, "filters", "image_version"],
    statement:
      "image_version matches whole values: a prefix, a suffix or a longer value of an existing tag returns no other version",
    specRef: 'interface-spec: 5. List deployments, image_version "Filter by image version"',
    needs: ["write", "state"],
    async run(ctx) {
      await semSet(ctx);
      const tag = containerImageTag;
      for (const v of [tag.slice(0, -2), tag.slice(2), `${tag}.1`, tag.slice(0, 1)]) {
        const page = await listDeployments(ctx, { image_version: v, limit: 100 });
        const wrong = page.resources.filter((r) => r.image_version !== v);
        ensure(
          wrong.length === 0,
          `image_version=${v} returned ${wrong.length} deployments with image_version ${JSON.stringify(wrong[0]?.image_version)}`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "SEM-004",
    level: "SHOULD",
    tags: [...semanticList, "filters", "combinations"],
    statement:
      "Two filters together: every returned deployment satisfies each of them (status, name_contains, image_version with deployment_ids)",
    specRef: "D-45 (filters combine with AND), D-07 (status values)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await semSet(ctx);
      const ids = [...set.ids, set.containerId];
      const cases: { query: Json; holds: (r: Json) => boolean }[] = [
        ...["UNUSED", "AWAITING_DELETE", "READY", "AWAITING_DATABASE"].map((s) => ({
          query: { status: s, deployment_ids: ids.join(",") },
          holds: (r: Json) => r.status === s,
        })),
        {
          query: { name_contains: set.containerName, deployment_ids: ids.join(",") },
          holds: (r) => r.name === set.containerName,
        },
        {
          query: { image_version: containerImageTag, deployment_ids: set.ids.join(",") },
          holds: (r) => r.image_version === containerImageTag,
        },
        { query: { status: "UNUSED", name_contains: set.stem }, holds: (r) => r.status === "UNUSED" },
      ];
      for (const { query, holds } of cases) {
        const page = await listDeployments(ctx, { ...(query as Record<string, string>), limit: 100 });
        const inSet = page.resources.filter((r) => ids.includes(String(r.id)) || String(r.name).startsWith(set.stem));
        const wrong = inSet.filter((r) => !holds(r));
        const label = new URLSearchParams(query as Record<string, string>).toString();
        ensure(
          wrong.length === 0,
          `${label.slice(0, 120)} returned ${wrong.length} deployments that break one of the filters`,
          page.exchange,
        );
        ensure(
          page.resources.every((r) => ids.includes(String(r.id)) || !("deployment_ids" in query)),
          `${label.slice(0, 120)} returned deployments outside deployment_ids`,
          page.exchange,
        );
      }
    },
  },
  {
    id: "SEM-005",
    level: "MUST",
    tags: [...semanticList, "createDeployment"],
    statement:
      "Each of 12 deployments created one after another is listed: by deployment_ids and in a walk of their name stem",
    specRef:
      'interface-spec: What the service does 3 ("Deployments can be created and listed"); Paginated deployment list',
    needs: ["write", "state"],
    async run(ctx) {
      const stem = `${ctx.prefix}lost${Math.random().toString(36).slice(2, 6)}-`;
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const { record } = await createDeployment(ctx, {
          body: deploymentBody(`${stem}${i}`, plainSource(ctx.config.hosting)),
        });
        ids.push(String(record.id));
      }
      for (const id of ids) {
        const page = await listDeployments(ctx, { deployment_ids: id });
        ensure(
          page.resources.length === 1,
          `deployment ${id}, created a moment ago, is not listed by deployment_ids`,
          page.exchange,
        );
      }
      const { records, last } = await walk(ctx, { name_contains: stem }, 5);
      const missing = ids.filter((id) => !records.some((r) => r.id === id));
      ensure(missing.length === 0, `a walk of name_contains=${stem} misses ${missing.join(", ")}`, last);
    },
  },
  {
    id: "SEM-010",
    level: "SHOULD",
    tags: [...semanticList, "status"],
    statement:
      "State fields agree with status in every record: AWAITING_DATABASE has active_revision_id null, READY has it equal to latest_revision_id, latest_revision_id is always set",
    specRef: "D-11, D-12 (initial state and transition), D-53",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await createDeployment(ctx, { label: "state" });
      ensure(stateProblems(record).length === 0, `create answer: ${stateProblems(record).join("; ")}`, exchange);
      const { records, last } = await walk(ctx, {}, 100);
      const wrong = records.flatMap((r) => stateProblems(r).map((p) => `${String(r.id)}: ${p}`));
      ensure(wrong.length === 0, `listed records: ${wrong.slice(0, 3).join("; ")}`, last);
    },
  },
  {
    id: "SEM-011",
    level: "SHOULD",
    tags: [...semanticList, "ordering", "pagination"],
    statement:
      "Order holds across page boundaries: pages of 2 follow the single-page order, and the whole walk is newest first",
    specRef: "D-08 (newest first, id descending on ties), D-09",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await semSet(ctx);
      const whole = await listDeployments(ctx, { name_contains: set.stem, limit: 100 });
      const paged = await walk(ctx, { name_contains: set.stem }, 2);
      ensure(
        idsOf(paged.records).join(",") === idsOf(whole.resources).join(","),
        `pages of 2 give [${idsOf(paged.records).join(", ")}], one page gives [${idsOf(whole.resources).join(", ")}]`,
        paged.last,
      );
      const all = await walk(ctx, {}, 30);
      for (let i = 1; i < all.records.length; i++) {
        const a = all.records[i - 1]!;
        const b = all.records[i]!;
        const ta = instant(a.created_at) ?? 0n;
        const tb = instant(b.created_at) ?? 0n;
        ensure(
          ta > tb || (ta === tb && String(a.id) > String(b.id)),
          `record ${i} of the walk (${String(b.created_at)}) is not older than record ${i - 1} (${String(a.created_at)})`,
          all.last,
        );
      }
    },
  },
  {
    id: "SEM-018",
    level: "SHOULD",
    tags: [...semanticList, "pagination", "filters"],
    statement:
      "offset applies under every filter: with name_contains alone and together with status, deployment_type, remote_reconciled and deployment_ids, the page at offset k is the k-th slice of the whole filtered list",
    specRef:
      "D-08, D-09 (a total order: a page is a slice of the whole list), D-45 (filters combine with AND), D-07 (status values)",
    needs: ["write", "state"],
    async run(ctx) {
      const set = await semSet(ctx);
      const filters: Json[] = [
        {},
        { status: "READY" },
        { status: "AWAITING_DATABASE" },
        { deployment_type: "dev" },
        { remote_reconciled: false },
        { deployment_ids: set.ids.join(",") },
      ];
      for (const extra of filters) await offsetSlices(ctx, { name_contains: set.stem, ...extra });
    },
  },
  {
    id: "DEP-LIST-041",
    level: "SHOULD",
    tags: [...filters, "remote_reconciled"],
    statement:
      "remote_reconciled alone, with no other filter, is still a filter: true lists only deployments with a listener_id, false only deployments without one, and false lists the run's deployments",
    specRef: "D-40 (remote_reconciled true exactly when listener_id is set)",
    needs: ["write", "state"],
    async run(ctx) {
      await pageSet(ctx);
      const listener = (d: Json) => isObject(d.source_config) && d.source_config.listener_id != null;
      for (const wanted of [true, false]) {
        const page = await listDeployments(ctx, { remote_reconciled: wanted, limit: 100 });
        const wrong = page.resources.filter((d) => listener(d) !== wanted);
        ensure(
          wrong.length === 0,
          `remote_reconciled=${wanted} alone returned ${wrong.length} of ${page.resources.length} deployments ${wanted ? "without" : "with"} a listener_id`,
          page.exchange,
        );
        if (!wanted)
          ensure(page.resources.length > 0, "remote_reconciled=false alone returned no deployment", page.exchange);
      }
    },
  },
  {
    id: "DEP-LIST-043",
    level: "SHOULD",
    tags: [...filters, "remote_reconciled"],
    statement:
      "A deployment created with a listener_id is remote-reconciled: remote_reconciled=true lists it, with that listener_id, and false does not",
    specRef:
      "D-40 (remote_reconciled true exactly when listener_id is set), D-48 (the sources that may carry a listener_id)",
    needs: ["write", "state"],
    async run(ctx) {
      // the sources that may carry a listener_id (D-48), of those this hosting kind offers
      const source = sourcesFor[ctx.config.hosting].find(
        (s) => perSourceRules["source_config.listener_id"]?.[s] === "O",
      );
      if (!source) return ctx.skip(`no source of ${ctx.config.hosting} hosting may carry a listener_id (D-48)`);
      const listenerId = randomUUID();
      const body = deploymentBody(ctx.name("listener"), source);
      (body.source_config as Json).listener_id = listenerId;
      const { record } = await createDeployment(ctx, { body });
      const yes = await listDeployments(ctx, { name_contains: String(body.name), remote_reconciled: true });
      const listed = yes.resources.find((d) => d.id === record.id);
      ensure(
        listed !== undefined,
        "remote_reconciled=true does not list a deployment with a listener_id",
        yes.exchange,
      );
      ensure(
        isObject(listed.source_config) && listed.source_config.listener_id === listenerId,
        `remote_reconciled=true lists it with listener_id ${JSON.stringify(isObject(listed.source_config) ? listed.source_config.listener_id : undefined)}, not ${listenerId}`,
        yes.exchange,
      );
      const no = await listDeployments(ctx, { name_contains: String(body.name), remote_reconciled: false });
      ensure(
        !no.resources.some((d) => d.id === record.id),
        "remote_reconciled=false lists a deployment with a listener_id",
        no.exchange,
      );
    },
  },
  {
    id: "DEP-LIST-042",
    level: "SHOULD",
    tags: [...filters, "name_contains"],
    statement:
      "A name_contains of one or two characters, in either letter case, alone or beside status or deployment_ids, lists the deployment just created whose name holds it on the first page (newest first), and only names holding it; a needle holding a character no name may hold (a double quote, %, _) is answered 200 with only names holding it",
    specRef: "D-39 (name_contains: case-insensitive substring), D-08 (newest first), D-37",
    needs: ["write", "state"],
    async run(ctx) {
      const body = deploymentBody(`${ctx.name("short")}-qz`, plainSource(ctx.config.hosting));
      const { record } = await createDeployment(ctx, { body });
      const holds = (needle: string) => (d: Json) => String(d.name).toLowerCase().includes(needle.toLowerCase());
      // a new deployment is AWAITING_DATABASE, then READY (D-53); UNUSED asks the store for a status none has yet
      const everyStatus = "AWAITING_DATABASE,READY,UNUSED";
      const besides = [{}, { status: everyStatus }, { deployment_ids: String(record.id) }];
      for (const needle of ["qz", "QZ", "z", "Q"])
        for (const query of besides.map((other) => ({ name_contains: needle, ...other }))) {
          const page = await listDeployments(ctx, { ...query, limit: 100 });
          const what = `name_contains=${needle}${Object.keys(query).length > 1 ? ` beside ${Object.keys(query)[1]}` : ""}`;
          ensure(
            page.resources.some((d) => d.id === record.id),
            `${what}: the deployment ${String(body.name)} just created is not on the first page`,
            page.exchange,
          );
          const wrong = page.resources.filter((d) => !holds(needle)(d));
          ensure(wrong.length === 0, `${what}: lists ${String(wrong[0]?.name)}, which does not hold it`, page.exchange);
        }
      // one-character needles too, below a trigram, which the store tests apart (D-84): one no name may hold, and a
      // letter or digit the created name lacks, which beside its deployment_ids must list nothing
      const lacking = [..."abcdefghijklmnopqrstuvwxyz0123456789"].find((c) => !String(body.name).includes(c)) ?? "%";
      for (const needle of ['qz"x', "q%z", "q_z", "%", '"', lacking])
        for (const query of besides.map((other) => ({ name_contains: needle, ...other }))) {
          const page = await listDeployments(ctx, { ...query, limit: 100 });
          const wrong = page.resources.filter((d) => !holds(needle)(d));
          ensure(
            wrong.length === 0,
            `name_contains=${needle}: lists ${String(wrong[0]?.name)}, which does not hold it`,
            page.exchange,
          );
        }
    },
  },
];
