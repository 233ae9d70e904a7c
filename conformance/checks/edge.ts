/** Edge checks: parameter notations and bounds, formats in every answer, enum letter case, content type, auth order, header case, problem status (D-13, D-16, D-24, D-25, D-29). */

import { ensure, expect2xx, expect4xx, expectStatus, isObject, jsonArray } from "../assert.js";
import type { Check, CheckContext, SendRequest } from "../check.js";
import { deploymentBody, plainSource, providerBody } from "../data.js";
import { recordFormatProblems } from "../formats.js";
import { createDeployment, createProvider, type Json, listDeployments, listProviders, paths } from "../helpers.js";
import type { Exchange } from "../http.js";
import { isNoVerdict } from "../no-verdict.js";

const tags = ["edge"];
const list = [...tags, "listDeployments"];

/** Sends a list request with a raw query string (values exactly as written, e.g. a space or an empty value). */
function listRaw(ctx: CheckContext, query: string): Promise<Exchange> {
  return ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
}

/** Sends a create and records what it created, whatever the check then concludes. */
async function tryCreate(
  ctx: CheckContext,
  request: Omit<SendRequest, "method">,
  kind: "deployment" | "oauth_provider",
) {
  const ex = await ctx.send({ method: "POST", ...request, noValidate: true });
  if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
    ctx.created({ kind, id: ex.json.id, name: String(ex.json.name ?? ex.json.provider_id), key: "main" });
  return ex;
}

/** Values of limit and offset that are no integer under any reading. */
const nonIntegers = ["2.5", "ten", "0.5", "1,5"];
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

/** Bodies whose enumerated values are written in another letter case than the allowed value. */
function caseBodies(
  ctx: CheckContext,
): { label: string; request: Omit<SendRequest, "method">; kind: "deployment" | "oauth_provider" }[] {
  const source = plainSource(ctx.config.hosting);
  const shout = (s: string) => s.toUpperCase();
  const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return [
    ...[shout(source), title(source)].map((v) => ({
      label: `source ${v}`,
      request: { path: paths.deployments, json: { ...deploymentBody(ctx.name("case"), source), source: v } },
      kind: "deployment" as const,
    })),
    ...["Slack", "SLACK", "Microsoft"].map((v) => ({
      label: `provider_type ${v}`,
      request: { path: paths.providers, json: { ...providerBody(ctx.name("case")), provider_type: v } },
      kind: "oauth_provider" as const,
    })),
    ...["CLIENT_SECRET_BASIC", "None"].map((v) => ({
      label: `token_endpoint_auth_method ${v}`,
      request: { path: paths.providers, json: { ...providerBody(ctx.name("case")), token_endpoint_auth_method: v } },
      kind: "oauth_provider" as const,
    })),
  ];
}

/** A valid deployment body as raw text, for the content-type checks. */
function rawDeployment(ctx: CheckContext, label: string): { name: string; raw: string } {
  const name = ctx.name(label);
  return { name, raw: JSON.stringify(deploymentBody(name, plainSource(ctx.config.hosting))) };
}

/** How many deployments carry exactly this name (a refused create must leave none). */
async function countNamed(ctx: CheckContext, name: string): Promise<{ n: number; exchange: Exchange }> {
  const page = await listDeployments(ctx, { name_contains: name, limit: 100 });
  return { n: page.resources.filter((r) => r.name === name).length, exchange: page.exchange };
}

/** Requests that are wrong in more than their credentials. */
const wrongInOtherWays: (Omit<SendRequest, "auth" | "tenant"> & { label: string; tenantHeader?: string })[] = [
  {
    label: "malformed JSON",
    method: "POST",
    path: paths.deployments,
    raw: '{"name":',
    headers: { "Content-Type": "application/json" },
  },
  {
    label: "a body breaking the schema",
    method: "POST",
    path: paths.deployments,
    json: { name: 1, source: "ftp" },
  },
  {
    label: "a provider body breaking the schema",
    method: "POST",
    path: paths.providers,
    json: { provider_id: 7 },
  },
  {
    label: "a text/plain body",
    method: "POST",
    path: paths.deployments,
    raw: "hello",
    headers: { "Content-Type": "text/plain" },
  },
  { label: "limit=0", method: "GET", path: paths.deployments, query: { limit: 0 } },
  { label: "status=RUNNING", method: "GET", path: paths.deployments, query: { status: "RUNNING" } },
  { label: "a malformed integration id", method: "GET", path: paths.repos("not-a-uuid") },
  { label: "a malformed X-Tenant-Id", method: "GET", path: paths.deployments, tenantHeader: "not-a-uuid" },
];

/** A missing or unknown key answers 401 whatever else is wrong with the request (D-13). */
function authFirst(id: string, key: "none" | "unknown", label: string): Check {
  return {
    id,
    level: "SHOULD",
    tags: [...tags, "auth", "validation"],
    statement: `${label}, a request that is wrong in other ways too (bad body, bad content type, bad query, bad tenant or path id) answers 401`,
    specRef: "D-13 (a missing or unknown key is 401 before anything else of the request is looked at)",
    needs: ["server"],
    async run(ctx) {
      const auth = key === "none" ? "none" : { key: `dk_conformance_wrong_${ctx.config.runId}` };
      for (const { label: what, tenantHeader, ...req } of wrongInOtherWays) {
        const ex = await ctx.send({ ...req, auth, tenant: tenantHeader ?? "none" });
        expectStatus(ex, 401, `${what}, ${label.toLowerCase()}`);
      }
    },
  };
}

export const edgeChecks: Check[] = [
  {
    id: "EDGE-001",
    level: "MUST",
    tags: [...list, "validation", "pagination"],
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
    id: "EDGE-002",
    level: "SHOULD",
    tags: [...list, "validation", "pagination"],
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
    tags: [...list, "pagination"],
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
    tags: [...list, "pagination"],
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
    id: "EDGE-004",
    level: "MUST",
    tags: [...tags, "formats", "createDeployment", "listDeployments", "createOAuthProvider", "listOAuthProviders"],
    statement:
      "Every record in every answer (create and list, deployments, providers, repositories) carries uuid fields as UUIDs and date-time fields as RFC 3339 with a time offset",
    specRef: "interface-spec: Resources and their fields (uuid, date-time types)",
    needs: ["state"],
    async run(ctx) {
      const judge = (ex: Exchange, kind: "deployment" | "provider" | "repository", records: unknown[]) => {
        const problems = records.flatMap((r, i) => recordFormatProblems(kind, r).map((p) => `record ${i}: ${p}`));
        ensure(problems.length === 0, `${kind} answer: ${problems.slice(0, 5).join("; ")}`, ex);
      };
      if (!ctx.config.readOnly) {
        // a refused deployment body (D-48) is no verdict on it (D-180); the other answers are still judged
        try {
          const d = await createDeployment(ctx, { label: "fmt" });
          judge(d.exchange, "deployment", [d.record]);
        } catch (error) {
          if (!isNoVerdict(error)) throw error;
          ctx.note((error as Error).message);
        }
        const p = await createProvider(ctx);
        judge(p.exchange, "provider", [p.record]);
      }
      for (let offset = 0, pages = 0; pages < 50; pages++) {
        const page = await listDeployments(ctx, { limit: 100, offset });
        judge(page.exchange, "deployment", page.resources);
        if (page.resources.length === 0 || page.offset <= offset) break;
        offset = page.offset;
      }
      const providers = await listProviders(ctx);
      judge(providers.exchange, "provider", providers.records);
      for (const path of [
        ctx.config.integrationId && paths.repos(ctx.config.integrationId),
        ctx.config.managedIntegrationId && paths.managedRepos(ctx.config.managedIntegrationId),
      ]) {
        if (!path) continue;
        const ex = await ctx.send({ method: "GET", path });
        expect2xx(ex, `GET ${path}`);
        judge(ex, "repository", jsonArray(ex, `GET ${path}`));
      }
    },
  },
  {
    id: "EDGE-005",
    level: "MUST",
    tags: [...tags, "validation", "enum-case", "createDeployment", "createOAuthProvider"],
    statement:
      "An enumerated body value in another letter case (source, provider_type, token_endpoint_auth_method) is rejected with a 4xx",
    specRef:
      "interface-spec: OAuth provider creation request body (provider_type lowercase vendor names); 6. Create a deployment (source); Errors (allowed values of enumerated fields)",
    needs: ["server"],
    async run(ctx) {
      for (const { label, request, kind } of caseBodies(ctx))
        expect4xx(await tryCreate(ctx, request, kind), `create with ${label}`);
    },
  },
  {
    id: "EDGE-006",
    level: "MUST",
    tags: [...list, "validation", "enum-case", "filters"],
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
    tags: [...list, "validation", "enum-case", "filters", "status"],
    statement: "A status filter value in another letter case (ready, Awaiting_Database) answers 422",
    specRef: "D-07 (the five status values; an unknown value is 422)",
    needs: ["server"],
    async run(ctx) {
      for (const v of ["ready", "Awaiting_Database", "READY,unused"])
        expectStatus(await listRaw(ctx, `status=${v}`), 422, `status=${v}`);
    },
  },
  {
    id: "EDGE-008",
    level: "SHOULD",
    tags: [...tags, "content-type", "createDeployment"],
    statement:
      "A JSON body under text/plain, form encoding or no Content-Type answers 415 and creates nothing; application/json with a charset or in capitals is accepted",
    specRef: "D-24 (415 for a body that is not application/json)",
    needs: ["state", "write"],
    async run(ctx) {
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp", undefined]) {
        const { name, raw } = rawDeployment(ctx, "ctype");
        const ex = await tryCreate(
          ctx,
          { path: paths.deployments, raw, ...(type ? { headers: { "Content-Type": type } } : {}) },
          "deployment",
        );
        expectStatus(ex, 415, `a JSON body sent as ${type ?? "no Content-Type"}`);
        const { n, exchange } = await countNamed(ctx, name);
        ensure(n === 0, `the refused body sent as ${type ?? "no Content-Type"} created a deployment`, exchange);
      }
      for (const type of ["application/json; charset=utf-8", "Application/JSON"]) {
        const { raw } = rawDeployment(ctx, "ctype");
        const ex = await tryCreate(
          ctx,
          { path: paths.deployments, raw, headers: { "Content-Type": type } },
          "deployment",
        );
        expect2xx(ex, `a JSON body sent as ${type}`);
      }
    },
  },
  authFirst("EDGE-009", "none", "Without a key"),
  authFirst("EDGE-014", "unknown", "With an unknown key"),
  {
    id: "EDGE-010",
    level: "SHOULD",
    tags: [...tags, "auth", "headers"],
    statement:
      "Header names are case-insensitive: x-api-key and X-API-KEY authenticate, x-tenant-id and X-TENANT-ID select (an unreachable tenant answers 403)",
    specRef: "D-13 (header names are case-insensitive), D-14",
    needs: ["server"],
    async run(ctx) {
      for (const name of ["x-api-key", "X-API-KEY", "X-Api-key"]) {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          auth: "none",
          headers: { [name]: ctx.config.apiKey },
          operation: "listDeployments",
        });
        expectStatus(ex, 200, `list deployments with the key in a header named ${name}`);
      }
      for (const name of ["x-tenant-id", "X-TENANT-ID"]) {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          tenant: "none",
          headers: { [name]: "00000000-0000-4000-8000-0000000000cf" },
        });
        expectStatus(ex, 403, `list deployments with an unreachable tenant in a header named ${name}`);
      }
    },
  },
  {
    id: "EDGE-011",
    level: "SHOULD",
    tags: [...tags, "errors"],
    statement: "Every problem answer carries status equal to the HTTP status (400, 401, 403, 404, 405, 409, 415, 422)",
    specRef: "D-16 (status equal to the HTTP status)",
    needs: ["server", "state"],
    async run(ctx) {
      const dup = ctx.config.readOnly ? undefined : (await createProvider(ctx)).body;
      const requests: (SendRequest & { label: string })[] = [
        {
          label: "malformed JSON",
          method: "POST",
          path: paths.deployments,
          raw: "{",
          headers: { "Content-Type": "application/json" },
        },
        { label: "no key", method: "GET", path: paths.deployments, auth: "none", tenant: "none" },
        {
          label: "unreachable tenant",
          method: "GET",
          path: paths.providers,
          tenant: "00000000-0000-4000-8000-0000000000cf",
        },
        { label: "unknown integration", method: "GET", path: paths.repos("00000000-0000-4000-8000-0000000000cf") },
        { label: "unknown route", method: "GET", path: "/v2/cf-no-such-route" },
        { label: "method not allowed", method: "DELETE", path: paths.deployments },
        {
          label: "text/plain body",
          method: "POST",
          path: paths.providers,
          raw: "x",
          headers: { "Content-Type": "text/plain" },
        },
        { label: "limit=0", method: "GET", path: paths.deployments, query: { limit: 0 } },
        ...(dup ? [{ label: "duplicate provider_id", method: "POST", path: paths.providers, json: dup }] : []),
      ];
      for (const { label, ...req } of requests) {
        const ex = await ctx.send(req);
        ensure(ex.response.status >= 400, `${label}: expected an error, got ${ex.response.status}`, ex);
        ensure(
          isObject(ex.json) && ex.json.status === ex.response.status,
          `${label}: the problem's status ${JSON.stringify(isObject(ex.json) ? ex.json.status : undefined)} differs from the HTTP status ${ex.response.status}`,
          ex,
        );
      }
    },
  },
  {
    id: "EDGE-012",
    level: "MUST",
    tags: [...tags, "validation", "createDeployment", "createOAuthProvider"],
    statement:
      "A body that is not well-formed JSON is rejected with a 4xx (never a 2xx or 5xx) on both create operations",
    specRef: "interface-spec: Bodies are JSON (Content-Type: application/json on requests with a body)",
    needs: ["server"],
    async run(ctx) {
      for (const path of [paths.deployments, paths.providers])
        for (const raw of ['{"name": "x",', "{name: 'x'}", "[1, 2", "nul"]) {
          const ex = await tryCreate(
            ctx,
            { path, raw, headers: { "Content-Type": "application/json" } },
            path === paths.deployments ? "deployment" : "oauth_provider",
          );
          expect4xx(ex, `POST ${path} with the body ${raw}`);
        }
    },
  },
  {
    id: "EDGE-013",
    level: "MUST",
    tags: [...list, "filters"],
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
];
