/** Semantic checks: filters and pagination together, what is stored against what is answered, masking, state, per-source rules, races (rules 2-4; D-08, D-11/D-12, D-22, D-47, D-48, D-55, D-56, D-60). */

import { ensure, expectStatus, isObject } from "../assert.js";
import type { Check, CheckContext } from "../check.js";
import { containerImageTag, deploymentBody, plainSource, providerBody, type Source, sourcesFor } from "../data.js";
import {
  createDeployment,
  createProvider,
  deploymentSet,
  differences,
  firstRepository,
  instant,
  type Json,
  listDeployments,
  listProviders,
  paths,
  walkDeployments,
} from "../helpers.js";
import type { Exchange } from "../http.js";
import { judgeEach, noVerdictWhenRefused, statusValuesJudgedBy } from "../no-verdict.js";
import { whileStatusesHold } from "../settle.js";
import { perSourceRules, ruleSample } from "../source-rules.js";

const tags = ["semantics"];
const list = [...tags, "listDeployments"];
const setSize = 7;

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

/** A create that may be refused: records what it created. */
async function tryCreate(ctx: CheckContext, body: Json): Promise<Exchange> {
  const ex = await ctx.send({ method: "POST", path: paths.deployments, json: body, noValidate: true });
  if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
    ctx.created({ kind: "deployment", id: ex.json.id, name: String(body.name), key: "main" });
  return ex;
}

/** Deployment bodies of every available source (codehost only with an integration). */
async function everySource(ctx: CheckContext): Promise<Json[]> {
  const out: Json[] = [];
  for (const source of sourcesFor[ctx.config.hosting]) {
    if (source === "codehost" && !ctx.config.integrationId) continue;
    const repo = source === "codehost" ? await firstRepository(ctx) : undefined;
    out.push(deploymentBody(ctx.name(source.replace(/_/g, "-")), source, repo));
  }
  return out;
}

export const semanticChecks: Check[] = [
  {
    id: "SEM-001",
    level: "MUST",
    tags: [...list, "pagination", "filters"],
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
          const probe = await ctx.send({
            method: "GET",
            path: paths.deployments,
            query: { status, limit: 1 },
            operation: "listDeployments",
          });
          noVerdictWhenRefused(ctx, probe, `status=${status}`, statusValuesJudgedBy);
          const want = set.ids.filter((id) => statuses.get(id) === status);
          await walkFinds({ name_contains: set.stem, status }, want);
        });
      });
    },
  },
  {
    id: "SEM-002",
    level: "MUST",
    tags: [...list, "filters", "name_contains"],
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
    tags: [...list, "filters", "image_version"],
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
    tags: [...list, "filters", "combinations"],
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
    tags: [...list, "createDeployment"],
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
    id: "SEM-006",
    level: "MUST",
    tags: [...tags, "rule-4", "createDeployment", "listCodehostRepositories", "listManagedCodehostRepositories"],
    statement:
      "A deployment created from any repository record of operation 3 or 4 carries that record's host_integration_id, url and default_branch, on create and in the list",
    specRef: "interface-spec: 6. Create a deployment, rule 4; Code-host repository record",
    needs: ["write", "state", "integration", "cloud"],
    async run(ctx) {
      const sources = [paths.repos(ctx.config.integrationId!)];
      if (ctx.config.managedIntegrationId) sources.push(paths.managedRepos(ctx.config.managedIntegrationId));
      const repos: Json[] = [];
      for (const path of sources) {
        const ex = await ctx.send({ method: "GET", path });
        ensure(Array.isArray(ex.json), `GET ${path}: expected a JSON array`, ex);
        repos.push(...(ex.json as Json[]));
      }
      // a refused body (graph_config_path and the rest of the codehost row are D-48) is no verdict for that repository
      await judgeEach(ctx, repos, async (repo) => {
        const want = {
          source_config: { integration_id: repo.host_integration_id, repo_url: repo.url },
          source_revision_config: { repo_ref: repo.default_branch },
        };
        const body = deploymentBody(ctx.name("rule4"), "codehost", repo as never);
        const { exchange, record } = await createDeployment(ctx, { body });
        const diff = differences(record, want);
        ensure(diff.length === 0, `created from ${String(repo.url)}: ${diff.join("; ")}`, exchange);
        const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
        const ldiff = listed.resources[0] ? differences(listed.resources[0], want) : ["not listed"];
        ensure(ldiff.length === 0, `listed, created from ${String(repo.url)}: ${ldiff.join("; ")}`, listed.exchange);
      });
    },
  },
  {
    id: "SEM-007",
    level: "MUST",
    tags: [...tags, "defaults", "createOAuthProvider", "listOAuthProviders"],
    statement:
      "Defaults hold whichever optional fields are sent: uses_pkce false, code_challenge_method S256, token_endpoint_auth_method client_secret_post, on create and in the list",
    specRef: "interface-spec: OAuth provider creation request body (defaults); OAuth provider response record",
    needs: ["write", "state"],
    async run(ctx) {
      const variants: Json[] = [
        {},
        { uses_pkce: true },
        { token_endpoint_auth_method: "none" },
        // which vendor names provider_type takes is D-57; null is stated
        { provider_type: null },
        { code_challenge_method: "S256" },
      ];
      const made: { sent: Json; record: Json }[] = [];
      for (const v of variants) {
        const { record } = await createProvider(ctx, { ...providerBody(ctx.name("dflt")), ...v });
        made.push({ sent: v, record });
      }
      const { exchange, records } = await listProviders(ctx);
      for (const { sent, record } of made) {
        const want: Json = {
          uses_pkce: sent.uses_pkce ?? false,
          code_challenge_method: sent.code_challenge_method ?? "S256",
        };
        const tokenMethod = sent.token_endpoint_auth_method ?? "client_secret_post";
        for (const [where, r, ex] of [
          ["create", record, exchange],
          ["list", records.find((x) => x.id === record.id), exchange],
        ] as const) {
          ensure(r, `the provider sent with ${JSON.stringify(sent)} is not listed`, ex);
          const diff = differences(r, want);
          if (
            !(
              r.token_endpoint_auth_method === tokenMethod ||
              (r.token_endpoint_auth_method === undefined && tokenMethod === "client_secret_post")
            )
          )
            diff.push(`token_endpoint_auth_method: got ${JSON.stringify(r.token_endpoint_auth_method)}`);
          ensure(diff.length === 0, `${where}, sent ${JSON.stringify(sent)}: ${diff.join("; ")}`, ex);
        }
      }
    },
  },
  {
    id: "SEM-008",
    level: "MUST",
    tags: [...tags, "secrets", "createOAuthProvider", "listOAuthProviders"],
    statement: "A client_secret value sent on create appears in no answer, under any field name (create and list)",
    specRef: 'interface-spec: client_secret "It is not a field of the provider response"',
    needs: ["write", "state"],
    async run(ctx) {
      const secret = `cf-${ctx.config.runId}-cs-${Math.random().toString(36).slice(2, 8)}`;
      const { exchange } = await createProvider(ctx, { ...providerBody(ctx.name("cs")), client_secret: secret });
      ensure(
        !JSON.stringify(exchange.json).includes(secret),
        "the create answer carries the client secret value",
        exchange,
      );
      const listed = await listProviders(ctx);
      ensure(
        !JSON.stringify(listed.exchange.json).includes(secret),
        "the provider list carries the client secret value",
        listed.exchange,
      );
    },
  },
  {
    id: "SEM-009",
    level: "SHOULD",
    tags: [...tags, "secrets", "createDeployment", "listDeployments"],
    statement: "Deployment secret values are masked as ******** in every answer: the create answer and the list",
    specRef: "D-55 (value returned masked as ********)",
    needs: ["write", "state"],
    async run(ctx) {
      const value = `cf-${ctx.config.runId}-sv-${Math.random().toString(36).slice(2, 8)}`;
      const body = {
        ...deploymentBody(ctx.name("mask"), plainSource(ctx.config.hosting)),
        secrets: [{ name: "CF_MASKED", value }],
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
      for (const [where, ex, r] of [
        ["create", exchange, record],
        ["list", listed.exchange, listed.resources[0]],
      ] as const) {
        ensure(!JSON.stringify(ex.json).includes(value), `the ${where} answer carries the secret value in clear`, ex);
        const values = Array.isArray(r?.secrets) ? (r.secrets as Json[]).map((s) => s.value) : [];
        ensure(
          JSON.stringify(values) === '["********"]',
          `the ${where} answer's secret values are ${JSON.stringify(values)}`,
          ex,
        );
      }
    },
  },
  {
    id: "SEM-010",
    level: "SHOULD",
    tags: [...list, "status"],
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
    tags: [...list, "ordering", "pagination"],
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
    id: "SEM-012",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments"],
    statement:
      "For every available source, the create answer carries the configuration sent and the listed record equals the create answer (but for status, updated_at, active_revision_id)",
    specRef:
      'interface-spec: 6. Create a deployment ("Response: one Deployment record"; source_config "Same fields as in the response"); 5. List deployments',
    needs: ["write", "state"],
    async run(ctx) {
      // a source whose body (D-48) is refused is no verdict here (D-180); the other sources are still judged
      await judgeEach(ctx, await everySource(ctx), async (body) => {
        const { exchange, record } = await createDeployment(ctx, { body });
        const sent = differences(record, {
          source_config: body.source_config as Json,
          source_revision_config: body.source_revision_config as Json,
        });
        ensure(
          sent.length === 0,
          `${String(body.source)}: the create answer differs from the request: ${sent.join("; ")}`,
          exchange,
        );
        const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
        const { status, updated_at, active_revision_id, ...stable } = record;
        const diff = listed.resources[0] ? differences(listed.resources[0], stable) : ["not listed"];
        ensure(
          diff.length === 0,
          `${String(body.source)}: the listed record differs: ${diff.join("; ")}`,
          listed.exchange,
        );
      });
    },
  },
  {
    id: "SEM-013",
    level: "MUST",
    tags: [...tags, "createDeployment", "secret_references"],
    statement:
      "secret_references sent for a source other than external_container are refused or at least never carried by the record (create and list)",
    specRef: 'interface-spec: Deployment record, secret_references "Only applicable for source external_container"',
    needs: ["write", "state"],
    async run(ctx) {
      const refs = [{ name: "CF_REF", secret_name: "cf-secret", secret_key: "token" }];
      for (const body of await everySource(ctx)) {
        if (body.source === "external_container") continue;
        const ex = await tryCreate(ctx, { ...body, secret_references: refs });
        if (ex.response.status >= 400) continue;
        const carried = (r: unknown) =>
          isObject(r) && Array.isArray(r.secret_references) && r.secret_references.length > 0;
        ensure(!carried(ex.json), `a ${String(body.source)} deployment carries secret_references`, ex);
        const listed = await listDeployments(ctx, { deployment_ids: String((ex.json as Json).id) });
        ensure(
          !carried(listed.resources[0]),
          `a listed ${String(body.source)} deployment carries secret_references`,
          listed.exchange,
        );
      }
    },
  },
  {
    id: "SEM-014",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "source-rules"],
    statement:
      "Per-source rules: a required field absent (or blank) and a forbidden field set each answer 400 naming the field, for every available source",
    specRef: "D-48 (required / allowed / forbidden fields per source), D-47",
    needs: ["state"],
    async run(ctx) {
      for (const source of sourcesFor[ctx.config.hosting]) {
        if (source === "codehost" && !ctx.config.integrationId) continue;
        const repo = source === "codehost" ? await firstRepository(ctx) : undefined;
        for (const [path, rules] of Object.entries(perSourceRules)) {
          const rule = rules[source];
          if (rule === "O") continue;
          const variants: { label: string; value: unknown }[] =
            rule === "F" ? [{ label: "set", value: ruleSample(path) }] : [{ label: "absent", value: undefined }];
          if (rule === "R" && typeof ruleSample(path) === "string" && !path.endsWith("_id"))
            variants.push({ label: "blank", value: "  " });
          for (const { label, value } of variants) {
            const body = deploymentBody(ctx.name("rule"), source, repo);
            const [top, leaf] = path.includes(".") ? path.split(".") : [undefined, path];
            // every body of deploymentBody() carries both config objects
            const target = top ? (body[top] as Json) : body;
            if (value === undefined) delete (target as Json)[leaf!];
            else (target as Json)[leaf!] = value;
            const ex = await tryCreate(ctx, body);
            expectStatus(ex, 400, `${source} with ${path} ${label}`);
            ensure(
              ex.response.body.includes(leaf!),
              `${source} with ${path} ${label}: the problem does not name ${leaf}`,
              ex,
            );
          }
        }
      }
    },
  },
  {
    id: "SEM-015",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "duplicates", "race"],
    statement:
      "Eight concurrent creates of one name: exactly one succeeds, the others answer 409, and one deployment of that name is listed",
    specRef: "D-37 (names unique per tenant), D-22 (409)",
    needs: ["write", "state"],
    async run(ctx) {
      const name = ctx.name("race");
      const body = deploymentBody(name, plainSource(ctx.config.hosting));
      const answers = await Promise.all(Array.from({ length: 8 }, () => tryCreate(ctx, body)));
      const ok = answers.filter((a) => a.response.status >= 200 && a.response.status < 300);
      ensure(ok.length === 1, `${ok.length} of 8 concurrent creates of ${name} succeeded`, ok[1] ?? answers[0]);
      for (const a of answers) if (a !== ok[0]) expectStatus(a, 409, `a concurrent duplicate create of ${name}`);
      const page = await listDeployments(ctx, { name_contains: name, limit: 100 });
      const n = page.resources.filter((r) => r.name === name).length;
      ensure(n === 1, `${n} deployments named ${name} are listed`, page.exchange);
    },
  },
  {
    id: "SEM-016",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "validation", "source-rules"],
    statement: "A body breaking the schema and a per-source rule at once answers 422 (schema errors are checked first)",
    specRef: "D-47 (schema errors are checked first), D-25",
    needs: ["server"],
    async run(ctx) {
      const unavailable: Source = ctx.config.hosting === "cloud" ? "external_container" : "internal_template";
      const cases: { label: string; body: Json }[] = [
        {
          label: `an unavailable source with a bad name`,
          body: { ...deploymentBody(`${ctx.prefix}bad_name`, unavailable) },
        },
        {
          label: "a forbidden field with secrets not an array",
          body: {
            ...deploymentBody(ctx.name("order"), plainSource(ctx.config.hosting)),
            secrets: "none",
            source_config: {
              custom_url: ctx.config.hosting === "cloud" ? "https://app.example.com" : null,
              install_command: "npm ci",
            },
          },
        },
      ];
      for (const { label, body } of cases) expectStatus(await tryCreate(ctx, body), 422, label);
    },
  },
  {
    id: "SEM-017",
    level: "MUST",
    tags: [...tags, "read-only", "createDeployment", "createOAuthProvider"],
    statement:
      "Response-only and read-only fields sent on create are refused or not taken over: a deployment's id, tenant_id, timestamps, status, revision ids and repo_commit_sha; a provider's mcp_server_url and is_dynamic_client",
    specRef:
      'interface-spec: Deployment (response record) ("Read-only"); SourceRevisionConfig (repo_commit_sha "Present in responses only"); OAuth provider response record (mcp_server_url, is_dynamic_client "only in responses")',
    needs: ["write", "state"],
    async run(ctx) {
      const forged: Json = {
        id: "00000000-0000-4000-8000-0000000000aa",
        tenant_id: "00000000-0000-4000-8000-0000000000bb",
        created_at: "2001-01-01T00:00:00Z",
        updated_at: "2001-01-01T00:00:00Z",
        status: "AWAITING_DELETE",
        latest_revision_id: "00000000-0000-4000-8000-0000000000cc",
        active_revision_id: "00000000-0000-4000-8000-0000000000dd",
      };
      const base = deploymentBody(ctx.name("ro"), plainSource(ctx.config.hosting));
      const sha = "e".repeat(40);
      const ex = await tryCreate(ctx, {
        ...base,
        ...forged,
        source_revision_config: { ...(base.source_revision_config as Json), repo_commit_sha: sha },
      });
      if (ex.response.status < 300) {
        const record = ex.json as Json;
        const taken = Object.keys(forged).filter((k) => record[k] === forged[k]);
        if ((record.source_revision_config as Json | undefined)?.repo_commit_sha === sha) taken.push("repo_commit_sha");
        ensure(taken.length === 0, `read-only fields were taken from the request: ${taken.join(", ")}`, ex);
      }
      const prov = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: {
          ...providerBody(ctx.name("ro")),
          mcp_server_url: "https://mcp.example.com/cf",
          is_dynamic_client: true,
        },
        noValidate: true,
      });
      if (prov.response.status < 300 && isObject(prov.json)) {
        ctx.created({
          kind: "oauth_provider",
          id: String(prov.json.id),
          name: String(prov.json.provider_id),
          key: "main",
        });
        const taken = [
          prov.json.mcp_server_url === "https://mcp.example.com/cf" && "mcp_server_url",
          prov.json.is_dynamic_client === true && "is_dynamic_client",
        ].filter(Boolean);
        ensure(taken.length === 0, `response-only fields were taken from the request: ${taken.join(", ")}`, prov);
      }
    },
  },
  {
    id: "SEM-018",
    level: "SHOULD",
    tags: [...list, "pagination", "filters"],
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
];
