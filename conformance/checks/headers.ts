/** Checks of headers: the media type of JSON answers (interface spec: "Bodies are JSON") and of problem answers (D-16), the request Content-Type (D-24), header name case (D-13), and bodies without a byte order mark. */
import { isJsonMediaType } from "../../contract/index.js";
import { ensure, expect2xx, expectStatus, jsonObject } from "../check-kit/assert.js";
import { errorRequests } from "../check-kit/error-requests.js";
import { listDeployments, paths, tryCreate } from "../check-kit/helpers.js";
import { sampledOperations, sampleRequest } from "../check-kit/operation-samples.js";
import { sharedCacheMayStore } from "../check-kit/shared-cache.js";
import { deploymentBody, plainSource } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

const tags = ["headers"];

/** The contract's list operations (GET) and create operations (POST), each with its sample request. */
const lists = sampledOperations.filter(({ operation }) => operation.method === "get");
const creates = sampledOperations.filter(({ operation }) => operation.method === "post");

/** The media type of an answer without its parameters (`application/json; charset=utf-8` → `application/json`). */
function mediaType(exchange: Exchange): string | undefined {
  return exchange.response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
}

/** Fails unless the answer is labelled with this media type and its body parses as JSON. */
function expectMediaType(exchange: Exchange, want: string, what: string): void {
  const got = mediaType(exchange);
  ensure(got === want, `${what}: Content-Type is ${got ?? "absent"}, expected ${want}`, exchange);
  ensure(exchange.json !== undefined, `${what}: the body labelled ${want} is not JSON`, exchange);
}

/** Fails unless the answer is labelled as JSON (`application/json` or `application/*+json`, D-381) and its body parses as JSON. */
function expectJson(exchange: Exchange, what: string): void {
  const got = mediaType(exchange);
  ensure(
    got !== undefined && isJsonMediaType(got),
    `${what}: Content-Type is ${got ?? "absent"}, expected a JSON media type (application/json or application/*+json)`,
    exchange,
  );
  ensure(exchange.json !== undefined, `${what}: the body labelled ${got} is not JSON`, exchange);
}

/**
 * Sends each list operation's sample request and judges its 2xx answer. An integration operation is sent only when
 * the run names its integration: an unknown one answers 404.
 */
async function eachListAnswer(ctx: CheckContext, judge: (exchange: Exchange, label: string) => void): Promise<void> {
  for (const { operation } of lists) {
    const request = sampleRequest(ctx, operation, "configured");
    if (!request) continue;
    const exchange = await ctx.send(request);
    expect2xx(exchange, request.label);
    judge(exchange, request.label);
  }
}

/**
 * The answer to a create operation's sample request, sent once in the run and judged by every check of a success
 * answer's headers: each create it makes uses the organization's finite room (D-245).
 */
function sampledCreate(
  ctx: CheckContext,
  { operation, sample }: (typeof creates)[number],
): Promise<{ exchange: Exchange; label: string }> {
  return ctx.fixture(
    `sampled-create:${operation.id}`,
    async () => {
      const request = sampleRequest(ctx, operation, "any");
      const exchange = await ctx.send(request);
      const id = (exchange.json as { id?: unknown } | undefined)?.id;
      if (exchange.response.status < 300 && sample.creates && request.json && id !== undefined)
        ctx.created({
          kind: sample.creates.kind,
          id: String(id),
          name: sample.creates.name(request.json),
          key: "main",
        });
      return { exchange, label: request.label };
    },
    "run",
  );
}

const edgeTags = ["edge"];

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

export const headerChecks: Check[] = [
  {
    id: "HDR-001",
    level: "MUST",
    tags: [...tags, ...lists.map(({ operation }) => operation.id)],
    statement:
      "The success answer of every list operation is labelled with a JSON media type (application/json or application/*+json)",
    specRef: 'interface-spec: introduction ("Bodies are JSON"); 2. List OAuth providers ("a JSON array")',
    needs: [],
    async run(ctx) {
      await eachListAnswer(ctx, (exchange, label) => expectJson(exchange, label));
    },
  },
  {
    id: "HDR-002",
    level: "MUST",
    tags: [...tags, ...creates.map(({ operation }) => operation.id)],
    statement:
      "The success answer of every create operation is labelled with a JSON media type (application/json or application/*+json)",
    specRef:
      'interface-spec: introduction ("Bodies are JSON"); 6. Create a deployment ("Response: one Deployment record")',
    needs: ["write"],
    async run(ctx) {
      for (const create of creates) {
        const { exchange, label } = await sampledCreate(ctx, create);
        expect2xx(exchange, label);
        jsonObject(exchange, label);
        expectJson(exchange, label);
      }
    },
  },
  {
    id: "HDR-004",
    level: "SHOULD",
    tags: [...tags, ...sampledOperations.map(({ operation }) => operation.id)],
    statement: "The success answer of every operation is labelled Content-Type application/json exactly",
    specRef: "D-381 (application/json, not a media type of its own)",
    needs: ["write"],
    async run(ctx) {
      for (const sampled of sampledOperations) {
        if (sampled.operation.method === "post") {
          const { exchange, label } = await sampledCreate(ctx, sampled);
          expect2xx(exchange, label);
          expectMediaType(exchange, "application/json", label);
          continue;
        }
        const request = sampleRequest(ctx, sampled.operation, "configured");
        if (!request) continue;
        const exchange = await ctx.send(request);
        expect2xx(exchange, request.label);
        expectMediaType(exchange, "application/json", request.label);
      }
    },
  },
  {
    id: "HDR-003",
    level: "SHOULD",
    tags: [...tags, "errors", "listDeployments"],
    statement: "Error answers (401, 404, 405, 422) are labelled Content-Type application/problem+json",
    specRef: "D-16 (RFC 9457 application/problem+json)",
    needs: ["server"],
    async run(ctx) {
      for (const error of errorRequests) {
        const exchange = await ctx.send(error.request);
        const status = exchange.response.status;
        ensure(status >= 400 && status < 500, `${error.what}: expected a 4xx answer, got ${status}`, exchange);
        expectMediaType(exchange, "application/problem+json", `${error.what} (${status})`);
      }
    },
  },
  {
    id: "EDGE-008",
    level: "SHOULD",
    tags: [...edgeTags, "content-type", "createDeployment"],
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
  {
    id: "EDGE-010",
    level: "SHOULD",
    tags: [...edgeTags, "auth", "headers"],
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
    id: "HDR-005",
    level: "SHOULD",
    tags: [...tags, "options"],
    statement:
      "OPTIONS on the path of each list operation, without CORS, answers 204 with an Allow that names the path's methods",
    specRef: "D-270 (204 to OPTIONS, with Allow); RFC 9110 §9.3.7 (an OPTIONS answer says what the resource supports)",
    needs: ["server"],
    async run(ctx) {
      for (const { operation } of lists) {
        const request = sampleRequest(ctx, operation, "any");
        const ex = await ctx.send({ method: "OPTIONS", path: request.path, auth: "none", tenant: "none" });
        expectStatus(ex, 204, `OPTIONS ${request.path}`);
        const allow = (ex.response.headers.allow ?? "").split(",").map((method) => method.trim().toUpperCase());
        ensure(
          allow.includes(operation.method.toUpperCase()),
          `OPTIONS ${request.path}: Allow '${ex.response.headers.allow ?? ""}' does not name ${operation.method.toUpperCase()}`,
          ex,
        );
      }
    },
  },
  {
    id: "HDR-006",
    level: "SHOULD",
    tags: [...tags, ...lists.map(({ operation }) => operation.id)],
    statement:
      "No answer's body starts with a byte order mark: the answer of every list operation and the 401, 404, 405 and 422 answers",
    specRef: "D-373 (RFC 8259 §8.1: a JSON text sent over a network carries no byte order mark)",
    needs: ["server"],
    async run(ctx) {
      const reads = lists.flatMap(({ operation }) => {
        const request = sampleRequest(ctx, operation, "configured");
        return request ? [{ what: request.label, request }] : [];
      });
      for (const { what, request } of [...reads, ...errorRequests]) {
        const exchange = await ctx.send(request);
        ensure(
          !exchange.response.body.startsWith("\ufeff"),
          `${what} (${exchange.response.status}): the body starts with a byte order mark (EF BB BF)`,
          exchange,
        );
      }
    },
  },
  {
    id: "HDR-007",
    level: "SHOULD",
    tags: [...tags, ...lists.map(({ operation }) => operation.id)],
    statement:
      "No success answer of a list operation may be kept by a shared cache for another caller: it carries Cache-Control no-store or private, or names the key header in Vary (public, max-age, s-maxage, Expires or no Cache-Control at all let a cache serve one key's records to another)",
    specRef:
      "D-454 (RFC 9111 §3, §3.5, §4.2.2: X-Api-Key, unlike Authorization, keeps no answer out of a shared cache)",
    needs: ["server"],
    async run(ctx) {
      await eachListAnswer(ctx, (exchange, label) => {
        const sent = Object.keys(exchange.request.headers).map((name) => name.toLowerCase());
        const keyHeader = sent.includes("authorization") ? "authorization" : "x-api-key";
        const why = sharedCacheMayStore(exchange.response.headers, keyHeader);
        ensure(why === undefined, `${label}: a shared cache may serve it to another key: ${why}`, exchange);
      });
    },
  },
];
