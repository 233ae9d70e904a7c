/** Checks of response headers: the media type of JSON answers (interface spec: "Bodies are JSON") and of problem answers (D-16). */
import { ensure, expect2xx, jsonObject } from "../assert.js";
import type { Check } from "../check.js";
import { paths } from "../helpers.js";
import type { Exchange } from "../http.js";
import { sampledOperations, sampleRequest } from "../operation-samples.js";

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

export const headerChecks: Check[] = [
  {
    id: "HDR-001",
    level: "MUST",
    tags: [...tags, ...lists.map(({ operation }) => operation.id)],
    statement: "The success answer of every list operation is labelled Content-Type application/json",
    specRef: 'interface-spec: introduction ("Bodies are JSON"); 2. List OAuth providers ("a JSON array")',
    needs: [],
    async run(ctx) {
      // An integration operation is sent only when the run names its integration: an unknown one answers 404.
      for (const { operation } of lists) {
        const request = sampleRequest(ctx, operation, "configured");
        if (!request) continue;
        const exchange = await ctx.send(request);
        expect2xx(exchange, request.label);
        expectMediaType(exchange, "application/json", request.label);
      }
    },
  },
  {
    id: "HDR-002",
    level: "MUST",
    tags: [...tags, ...creates.map(({ operation }) => operation.id)],
    statement: "The success answer of every create operation is labelled Content-Type application/json",
    specRef:
      'interface-spec: introduction ("Bodies are JSON"); 6. Create a deployment ("Response: one Deployment record")',
    needs: ["write"],
    async run(ctx) {
      for (const { operation, sample } of creates) {
        const request = sampleRequest(ctx, operation, "any");
        const exchange = await ctx.send(request);
        expect2xx(exchange, request.label);
        const record = jsonObject(exchange, request.label);
        if (sample.creates && request.json)
          ctx.created({
            kind: sample.creates.kind,
            id: String(record.id),
            name: sample.creates.name(request.json),
            key: "main",
          });
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
      const errors: { what: string; send: Parameters<typeof ctx.send>[0] }[] = [
        { what: "list deployments without a key", send: { method: "GET", path: paths.deployments, auth: "none" } },
        { what: "an unknown path", send: { method: "GET", path: `${paths.deployments}-unknown-path` } },
        { what: "a method the path does not allow", send: { method: "DELETE", path: paths.deployments } },
        {
          what: "list deployments with limit=0",
          send: { method: "GET", path: paths.deployments, query: { limit: 0 } },
        },
      ];
      for (const error of errors) {
        const exchange = await ctx.send(error.send);
        const status = exchange.response.status;
        ensure(status >= 400 && status < 500, `${error.what}: expected a 4xx answer, got ${status}`, exchange);
        expectMediaType(exchange, "application/problem+json", `${error.what} (${status})`);
      }
    },
  },
];
