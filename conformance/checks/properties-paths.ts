/**
 * A rule judged on every path (PROP-001 to PROP-004): authentication, the JSON label of success answers, the problem
 * shape of error answers and the list defaults, each over generated operation × method × answer class × query shape.
 */
import fc from "fast-check";
import { deploymentTypes, isJsonMediaType } from "../../contract/index.js";
import { ensure, expectStatus, isObject } from "../check-kit/assert.js";
import { type Json, paths } from "../check-kit/helpers.js";
import { type SampleRequest, sampledOperations, sampleRequest } from "../check-kit/operation-samples.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";
import { holdsFor, reached } from "./properties-run.js";
import { propertySet } from "./properties-set.js";

/** Accept headers clients send: exact, wildcard, a browser's list, a library's list. */
const accepts = [
  "application/json",
  "*/*",
  "application/json, text/plain, */*",
  "application/*",
  "application/problem+json, application/json;q=0.9",
];

/** A value of every filter and page parameter of the deployment list, and an unknown parameter. */
const parameterValues = {
  name_contains: fc.constantFrom("cf-", "Pq", "%", "a b", "é"),
  deployment_type: fc.constantFrom(...deploymentTypes),
  remote_reconciled: fc.boolean(),
  image_version: fc.constantFrom("1.0", "latest"),
  tag_value_ids: fc.constant("00000000-0000-4000-8000-000000000001"),
  deployment_ids: fc.constant("00000000-0000-4000-8000-000000000002"),
  offset: fc.nat(5),
  limit: fc.integer({ min: 1, max: 100 }),
  unknown_parameter: fc.constant("x"),
};
const everyParameter = fc.record(parameterValues);

/** Query shapes of the deployment list: none, or any combination of the parameters. */
const listQueries = fc.oneof(
  fc.constant({} as Json),
  everyParameter.chain((all) =>
    fc.subarray(Object.keys(all)).map((keys) => Object.fromEntries(keys.map((k) => [k, all[k as keyof typeof all]]))),
  ),
);

/** Indexes of the contract's operations, drawn unbiased. */
const operationIndex = fc.constantFrom(...sampledOperations.map((_, i) => i));

/** The sample request of an operation with a query (list deployments only) and the method to send it with. */
function sampled(ctx: CheckContext, index: number, query: Json, method?: string): SampleRequest {
  const { operation } = sampledOperations[index]!;
  const sample = sampleRequest(ctx, operation, "any");
  return {
    ...sample,
    method: method ?? sample.method,
    ...(operation.id === "listDeployments" ? { query: query as SendRequest["query"] } : {}),
  };
}

/** The answer class of a status for the method axis: 2xx, or the status itself. */
const answerClass = (status: number) => (status >= 200 && status < 300 ? "2xx" : String(status));

/** Records a created resource of a 2xx create answer, whatever the check concludes. */
function keep(ctx: CheckContext, request: SampleRequest, exchange: Exchange) {
  if (request.method !== "POST" || exchange.response.status >= 300 || !isObject(exchange.json)) return;
  const body = exchange.json;
  const kind = request.operation === "createDeployment" ? "deployment" : "oauth_provider";
  ctx.created({ kind, id: String(body.id), name: String(body.name ?? body.provider_id), key: "main" });
}

/** PROP-001: no key, on every operation, with the GET operations also sent as HEAD, and any query. */
async function authEverywhere(ctx: CheckContext): Promise<void> {
  const parameters = Object.keys(parameterValues);
  // every operation with its own method and, a GET operation, with HEAD; then the deployment list with some of its
  // parameters and with all of them, with GET and with HEAD
  const inputs = fc.record({
    query: everyParameter,
    subset: fc.subarray(parameters, { minLength: 1 }),
    accepts: fc.array(fc.constantFrom(...accepts), { minLength: 16, maxLength: 16 }),
  });
  await holdsFor(ctx, inputs, async ({ query, subset, accepts: drawn }) => {
    const list = sampledOperations.findIndex(({ operation }) => operation.id === "listDeployments");
    const some = Object.fromEntries(subset.map((k) => [k, query[k as keyof typeof query]]));
    const requests = [
      ...sampledOperations.flatMap((_, index) => [false, true].map((head) => ({ index, head, query: {} as Json }))),
      ...[some, query].flatMap((q) => [false, true].map((head) => ({ index: list, head, query: q as Json }))),
    ];
    for (const [n, { index, head, query: q }] of requests.entries()) {
      const base = sampled(ctx, index, q);
      if (head && base.method !== "GET") continue;
      const method = head ? "HEAD" : base.method;
      const { label, ...request } = { ...base, method };
      const accept = drawn[n % drawn.length]!;
      const exchange = await ctx.send({
        ...request,
        auth: "none",
        tenant: "none",
        headers: { Accept: accept },
        noValidate: true,
      });
      keep(ctx, base, exchange);
      reached(ctx, "methods", method, answerClass(exchange.response.status));
      const shown = Object.keys(q).length > 0 ? ` ${JSON.stringify(q)}` : "";
      expectStatus(exchange, 401, `${method} ${label}${shown} without X-Api-Key (Accept ${accept})`);
    }
  });
}

/** PROP-002: every success answer, whatever the Accept header and the query, is JSON labelled with a JSON media type (D-381). */
async function jsonEverywhere(ctx: CheckContext): Promise<void> {
  const inputs = fc.record({ operation: operationIndex, query: listQueries, accept: fc.constantFrom(...accepts) });
  await holdsFor(ctx, inputs, async ({ operation, query, accept }) => {
    const { label, ...request } = sampled(ctx, operation, query);
    // the contract's check of a 2xx answer in ctx.send judges its Content-Type and its body (interface-spec: bodies are JSON)
    const exchange = await ctx.send({ ...request, headers: { Accept: accept } });
    keep(ctx, { label, ...request }, exchange);
    reached(ctx, "methods", request.method, answerClass(exchange.response.status));
    if (exchange.response.status >= 300) return;
    const type = (exchange.response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    ensure(
      isJsonMediaType(type),
      `${label} with Accept ${accept}: a ${exchange.response.status} labelled ${type || "(none)"}`,
      exchange,
    );
  });
}

/** The error requests of one operation a run can provoke, by answer class (D-16 to D-25). */
function errorRequests(request: SampleRequest, duplicate: Json | undefined): [string, SendRequest][] {
  const { label, ...base } = request;
  const out: [string, SendRequest][] = [
    ["401", { ...base, auth: "none", tenant: "none" }],
    ["403", { ...base, tenant: "0b5f4a3e-2d1c-4b0a-9f8e-7d6c5b4a3f2e" }],
    ["422", { ...base, tenant: "not-a-uuid" }],
    ["405", { method: "PUT", path: base.path, json: {} }],
  ];
  if (base.method === "POST") {
    out.push(["400", { ...base, json: undefined, raw: '{"name":', headers: { "Content-Type": "application/json" } }]);
    out.push([
      "415",
      { ...base, json: undefined, raw: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
    ]);
    out.push(["422", { ...base, json: {} }]);
    if (duplicate) out.push(["409", { ...base, json: duplicate }]);
  }
  if (base.path !== paths.deployments && base.path !== paths.providers)
    out.push(["404", { ...base, path: base.path.replace(/[0-9a-f-]{36}/, "7e0d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b") }]);
  if (base.path === paths.deployments && base.method === "GET") out.push(["422", { ...base, query: { limit: 0 } }]);
  return out.map(([klass, r]) => [klass, { ...r, operation: base.operation, noValidate: true }]);
}

/** PROP-003: every error answer of every class on every operation is a problem detail whose status is the HTTP status. */
async function problemsEverywhere(ctx: CheckContext): Promise<void> {
  const set = await propertySet(ctx);
  const taken = (operation: string): Json | undefined => {
    const d = set.model.deployments[0];
    if (operation === "createDeployment" && d) return { ...(d.record as Json), name: d.name };
    const p = set.providers[0];
    return operation === "createOAuthProvider" && p ? { ...providerBodyOf(p) } : undefined;
  };
  // every error class of every operation on each input, the Accept header drawn per request
  const inputs = fc.array(fc.constantFrom(...accepts), { minLength: 60, maxLength: 60 });
  await holdsFor(ctx, inputs, async (drawn) => {
    const all = sampledOperations.flatMap((_, operation) => {
      const sample = sampled(ctx, operation, {});
      return errorRequests(sample, taken(sample.operation)).map(([klass, request]) => ({ sample, klass, request }));
    });
    for (const [n, { sample, klass, request }] of all.entries()) {
      const accept = drawn[n % drawn.length]!;
      const exchange = await ctx.send({ ...request, headers: { ...request.headers, Accept: accept } });
      const status = exchange.response.status;
      keep(ctx, sample, exchange);
      reached(ctx, "methods", request.method, answerClass(status));
      if (status < 400) continue; // the status is judged by its own checks (AUTH-*, STATUS-*, ERR-*); here only the shape
      const type = (exchange.response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      const body = exchange.json;
      const problems = [
        type === "application/problem+json" ? "" : `Content-Type ${type || "(none)"}`,
        isObject(body) ? "" : "a body that is not a JSON object",
        isObject(body) && body.status !== status ? `status ${JSON.stringify(body.status)}` : "",
        isObject(body) && (typeof body.type !== "string" || typeof body.title !== "string")
          ? "no type or title string"
          : "",
      ].filter(Boolean);
      ensure(
        problems.length === 0,
        `${request.method} ${sample.label} provoking ${klass} (Accept ${accept}) answered ${status} with ${problems.join(", ")}; D-16 wants application/problem+json with type, title and status ${status}`,
        exchange,
      );
    }
  });
}

/** The creation body of a provider record, to ask for its provider_id again (409, D-22). */
const providerBodyOf = (p: Json): Json => ({
  provider_id: p.provider_id,
  name: p.name,
  client_id: p.client_id,
  auth_url: p.auth_url,
  token_url: p.token_url,
});

/** PROP-004: without limit a page holds at most 20 deployments, under each filter alone and all of them combined. */
async function defaultsEverywhere(ctx: CheckContext): Promise<void> {
  await propertySet(ctx);
  const filters = fc.record({
    deployment_type: fc.constantFrom("dev", "dev", "dev", "prod"),
    remote_reconciled: fc.boolean(),
    image_version: fc.constantFrom("1.0", "Latest-RC"),
    tag_value_ids: fc.constant("00000000-0000-4000-8000-000000000001"),
    offset: fc.nat(30),
  });
  await holdsFor(ctx, filters, async (all) => {
    // the run's prefix matches every deployment the run created: far more than 20 by now
    const shapes: Json[] = [{}, ...Object.entries(all).map(([k, v]) => ({ [k]: v })), all];
    for (const chosen of shapes) {
      const query = { name_contains: ctx.prefix, ...chosen } as Record<string, string | number | boolean>;
      const exchange = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
      const keys = ["name_contains", ...Object.keys(chosen)];
      if (keys.length > 1) for (const filter of keys) reached(ctx, "filters", filter, "combined");
      reached(ctx, "filters", "limit", "absent (default)");
      if (!("offset" in chosen)) reached(ctx, "filters", "offset", "absent (default)");
      const resources =
        isObject(exchange.json) && Array.isArray(exchange.json.resources) ? exchange.json.resources : [];
      ensure(
        resources.length <= 20,
        `without limit, ${JSON.stringify(query)} returned ${resources.length} deployments; the default limit is 20`,
        exchange,
      );
    }
  });
}

const tags = ["properties", "generated", "paths"];
const everyOperation = sampledOperations.map(({ operation }) => operation.id);

export const pathPropertyChecks: Check[] = [
  {
    id: "PROP-001",
    level: "SHOULD",
    tags: [...tags, "auth", ...everyOperation],
    statement:
      "Every operation, with its own method and (a GET operation) HEAD, with some and with all list parameters and any Accept header, answers 401 without X-Api-Key",
    specRef: "D-13 (a missing key is 401 before anything else of the request is looked at)",
    needs: [],
    run: authEverywhere,
  },
  {
    id: "PROP-002",
    level: "MUST",
    tags: [...tags, "headers", ...everyOperation],
    statement:
      "Every success answer of every operation, with any query shape and any Accept header a client sends, is JSON labelled with a JSON media type (application/json or application/*+json)",
    specRef: "interface-spec: Bodies are JSON; every operation's response",
    needs: [],
    run: jsonEverywhere,
  },
  {
    id: "PROP-003",
    level: "SHOULD",
    tags: [...tags, "errors", ...everyOperation],
    statement:
      "Every error answer of every class (400, 401, 403, 404, 405, 409, 415, 422) on every operation, with any Accept header, is application/problem+json with type, title and status equal to the HTTP status",
    specRef: "D-16 (problem details), D-17 to D-25 (the classes)",
    needs: ["write", "state"],
    run: problemsEverywhere,
  },
  {
    id: "PROP-004",
    level: "MUST",
    tags: [...tags, "listDeployments", "pagination"],
    statement:
      "Without limit, a deployment list holds at most 20 deployments under each filter alone, all of them combined, and any offset",
    specRef: "interface-spec: 5. List deployments (limit default 20); Limits",
    needs: ["write", "state"],
    run: defaultsEverywhere,
  },
];
