/**
 * HTTP laws (LAW-009 to LAW-012 and LAW-016, RFC 9110, 9111, 9112; D-373): content negotiation with several types, q-values and
 * wildcards; validators that change with the representation; HEAD as GET without a body; each request on a kept-alive
 * connection answered as if it were alone, after successes and errors, one after another and pipelined; a Date on
 * every answer.
 */
import { ensure, expect2xx, isObject } from "../check-kit/assert.js";
import { errorRequests } from "../check-kit/error-requests.js";
import { createProvider, paths } from "../check-kit/helpers.js";
import { sameJson } from "../check-kit/same-json.js";
import { jsonWireHeaders, wireHeaders } from "../check-kit/wire-headers.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import { type Check, type CheckContext, CheckFailure, type SendRequest } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import { parseJsonText } from "../target/bounded-read.js";
import type { Exchange } from "../target/http-exchange.js";
import { type WireAnswer, WireConnection, type WireRequest } from "../target/wire.js";
import { reached } from "./properties-run.js";

/** The list operations every law here reads: providers, one page of deployments, and operation 3 when configured. */
function reads(ctx: CheckContext): { what: string; request: SendRequest }[] {
  const out: { what: string; request: SendRequest }[] = [
    {
      what: "list OAuth providers",
      request: { method: "GET", path: paths.providers, operation: "listOAuthProviders" },
    },
    {
      what: "list deployments",
      request: { method: "GET", path: paths.deployments, query: { limit: 1 }, operation: "listDeployments" },
    },
  ];
  if (ctx.config.integrationId)
    out.push({
      what: "list repositories",
      request: { method: "GET", path: paths.repos(ctx.config.integrationId), operation: "listCodehostRepositories" },
    });
  return out;
}

/** The media type of a Content-Type value, without its parameters, in lower case. */
const mediaTypeOf = (contentType: string | undefined) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();
const mediaType = (exchange: Exchange) => mediaTypeOf(exchange.response.headers["content-type"]);

/** Accept values that all take application/json at a q above 0 (RFC 9110 §12.5.1). */
const accepts = [
  "application/json;q=0.9, text/html;q=0.1",
  "text/html;q=0.5, application/json",
  "*/*",
  "application/*",
  "application/*;q=0.2, */*;q=0.1",
  "text/plain;q=0, application/json",
  "application/xml, application/json;q=0.8, */*;q=0.1",
  "APPLICATION/JSON",
];
/** Accept-Encoding values under which only identity is acceptable (RFC 9110 §12.5.3). */
const identityOnly = ["identity", "gzip;q=0, identity", "br;q=0, gzip;q=0, deflate;q=0", "*;q=0, identity;q=1"];

/** LAW-009: every list answers each Accept and Accept-Encoding value as it answers none: 200, JSON, no content coding. */
async function negotiationHolds(ctx: CheckContext): Promise<void> {
  for (const { what, request } of reads(ctx)) {
    for (const accept of accepts) {
      const exchange = await ctx.send({ ...request, headers: { Accept: accept } });
      ensure(
        exchange.response.status === 200 && mediaType(exchange) === "application/json",
        `${what} with Accept: ${accept} answered ${exchange.response.status} ${mediaType(exchange) || "without Content-Type"}; application/json is acceptable there, so the JSON answer is the one to send`,
        exchange,
      );
    }
    for (const encoding of identityOnly) {
      const exchange = await ctx.send({ ...request, headers: { "Accept-Encoding": encoding } });
      expect2xx(exchange, `${what} with Accept-Encoding: ${encoding}`);
      const coding = (exchange.response.headers["content-encoding"] ?? "identity").toLowerCase();
      ensure(
        coding === "identity",
        `${what} with Accept-Encoding: ${encoding} came with Content-Encoding ${coding}, a coding the request refused`,
        exchange,
      );
    }
  }
  await withoutAccept(ctx);
}

/**
 * A list read with no Accept header at all takes any media type (RFC 9110 §12.5.1): it is answered 200 JSON. Written
 * by hand on a connection of its own, since a fetch client adds `Accept: *\/*` to a request without one.
 */
async function withoutAccept(ctx: CheckContext): Promise<void> {
  if (ctx.config.fetch) return ctx.note("a list without Accept not judged: this run was given a fetch function");
  const connection = await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs);
  try {
    connection.write([{ method: "GET", target: paths.providers, headers: wireHeaders(ctx) }]);
    const answer = await connection.read("GET");
    const type = mediaTypeOf(answer.headers["content-type"]);
    ensure(
      answer.status === 200 && type === "application/json",
      `GET ${paths.providers} without an Accept header answered ${answer.status} ${type || "without Content-Type"} ${answer.body.slice(0, 200)}; a request without Accept takes any media type, so the JSON answer is the one to send`,
    );
  } finally {
    connection.close();
  }
}

/** Whole seconds since the epoch of an HTTP-date or an RFC 3339 timestamp (an HTTP-date's resolution), or undefined. */
function wholeSeconds(value: unknown): number | undefined {
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** The unchanged list again with a validator: 304, or 200 with the same representation. */
async function unchangedAnswer(ctx: CheckContext, what: string, request: SendRequest, first: Exchange, header: string) {
  const [name, value] = header.split(": ") as [string, string];
  const again = await ctx.send({ ...request, headers: { [name]: value }, noValidate: true });
  ensure(
    again.response.status === 304 ||
      (again.response.status === 200 && JSON.stringify(again.json) === JSON.stringify(first.json)),
    `${what} with ${header} of an unchanged list answered ${again.response.status} (304, or 200 with the same representation)`,
    again,
  );
}

/**
 * One list read twice around a change of its representation (`change` answers the created record's created_at): each
 * validator sent moves, and If-None-Match or If-Modified-Since with it answers 304 only before. Last-Modified has a
 * resolution of a second (RFC 9110 §8.8.2), so the change waits for the next second and is judged only when the
 * record's created_at lies past the first Last-Modified's second (D-431).
 */
async function validatorOf(
  ctx: CheckContext,
  what: string,
  request: SendRequest,
  change: () => Promise<unknown>,
): Promise<void> {
  const first = await ctx.send(request);
  expect2xx(first, what);
  const etag = first.response.headers.etag;
  const modified = first.response.headers["last-modified"];
  // a tag the target never sent matches nothing: the read is answered in full, whether the target sends ETags or not
  const unmatched = '"cf-never-sent"';
  const fresh = await ctx.send({ ...request, headers: { "If-None-Match": unmatched }, noValidate: true });
  ensure(
    fresh.response.status !== 304,
    `${what} with If-None-Match ${unmatched}, a tag the target never sent, answered 304: no representation matched it`,
    fresh,
  );
  if (!etag && !modified) {
    ctx.note(`${what}: no ETag and no Last-Modified sent`);
    return;
  }
  if (etag) await unchangedAnswer(ctx, what, request, first, `If-None-Match: ${etag}`);
  if (modified) {
    await unchangedAnswer(ctx, what, request, first, `If-Modified-Since: ${modified}`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
  }
  const createdAt = wholeSeconds(await change());
  if (etag) {
    const after = await ctx.send({ ...request, headers: { "If-None-Match": etag }, noValidate: true });
    ensure(
      after.response.status !== 304,
      `${what} with If-None-Match ${etag} answered 304 after the list changed: a client keeps a stale representation`,
      after,
    );
    expect2xx(after, `${what} after a change`);
    ensure(after.response.headers.etag !== etag, `${what} kept ETag ${etag} after its representation changed`, after);
  }
  const since = wholeSeconds(modified);
  if (modified === undefined || since === undefined || createdAt === undefined) return;
  if (createdAt <= since) {
    ctx.note(`${what}: the change fell in the second of Last-Modified ${modified}; Last-Modified not judged`);
    return;
  }
  const after = await ctx.send({ ...request, headers: { "If-Modified-Since": modified }, noValidate: true });
  ensure(
    after.response.status !== 304,
    `${what} with If-Modified-Since ${modified} answered 304 after a record created later (${new Date(createdAt * 1000).toISOString()}) changed it`,
    after,
  );
  expect2xx(after, `${what} after a change`);
  const later = after.response.headers["last-modified"];
  const laterSeconds = wholeSeconds(later);
  ensure(
    later === undefined || (laterSeconds !== undefined && laterSeconds >= createdAt),
    `${what} answered Last-Modified ${later} after a change, older than the created record's created_at (${new Date(createdAt * 1000).toISOString()})`,
    after,
  );
}

/** LAW-010: the validators of the providers list and of a deployment list by name, around a create that changes each. */
async function validatorsFollowChanges(ctx: CheckContext): Promise<void> {
  await validatorOf(
    ctx,
    "list OAuth providers",
    { method: "GET", path: paths.providers, operation: "listOAuthProviders" },
    async () => (await createProvider(ctx, providerBody(ctx.name("etag")))).record.created_at,
  );
  const name = ctx.name("etag");
  await validatorOf(
    ctx,
    `list deployments named ${name}`,
    { method: "GET", path: paths.deployments, query: { name_contains: name }, operation: "listDeployments" },
    async () => {
      const body = deploymentBody(name, plainSource(ctx.config.hosting));
      const created = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: body,
        operation: "createDeployment",
      });
      noVerdictWhenBodyRefused(ctx, created, body.source);
      expect2xx(created, "create a deployment");
      if (!isObject(created.json)) return undefined;
      ctx.created({ kind: "deployment", id: String(created.json.id), name, key: "main" });
      return created.json.created_at;
    },
  );
}

/** LAW-011: HEAD of every list answers as GET does (status, Content-Type, a Content-Length equal to GET's), without a body. */
async function headIsGetWithoutBody(ctx: CheckContext): Promise<void> {
  // and a read the target refuses: HEAD is refused as GET is, not answered 200 past the query's validation
  const refused: { what: string; request: SendRequest } = {
    what: "list deployments with limit=0",
    request: {
      method: "GET",
      path: paths.deployments,
      query: { limit: 0 },
      operation: "listDeployments",
      noValidate: true,
    },
  };
  for (const { what, request } of [...reads(ctx), refused]) {
    const get = await ctx.send(request);
    const head = await ctx.send({ ...request, method: "HEAD", noValidate: true });
    ensure(
      head.response.status === get.response.status,
      `HEAD of ${what} answered ${head.response.status}, GET ${get.response.status}`,
      head,
    );
    ensure(
      mediaType(head) === mediaType(get),
      `HEAD of ${what} is labelled ${mediaType(head) || "nothing"}, GET ${mediaType(get)}`,
      head,
    );
    ensure(head.response.body === "", `HEAD of ${what} came with a body`, head);
    const length = head.response.headers["content-length"];
    const getLength = get.response.headers["content-length"];
    // the deployment page may move (a status settles) between the two: its length is not compared
    if (length !== undefined && getLength !== undefined && request.path !== paths.deployments)
      ensure(length === getLength, `HEAD of ${what} announces Content-Length ${length}, GET ${getLength}`, head);
    if (head.response.status < 300) reached(ctx, "methods", "HEAD", "2xx");
  }
}

/** The sequence LAW-012 writes on one connection: successes, errors and a HEAD, each with the key. */
function sequence(ctx: CheckContext): WireRequest[] {
  const auth = jsonWireHeaders(ctx);
  return [
    { method: "GET", target: paths.providers, headers: auth },
    { method: "GET", target: `${paths.deployments}?limit=0`, headers: auth },
    { method: "HEAD", target: paths.providers, headers: auth },
    { method: "GET", target: "/v2/cf-no-such-route", headers: auth },
    {
      method: "POST",
      target: paths.deployments,
      headers: { ...auth, "Content-Type": "application/json" },
      body: '{"name": "cf-broken',
    },
    { method: "GET", target: paths.providers, headers: auth },
    { method: "GET", target: paths.providers, headers: auth, absolute: true },
  ];
}

/** A request of the sequence as a report names it. */
const named = (r: WireRequest) => `${r.method} ${r.target}${r.absolute ? " (absolute-form)" : ""}`;

/** The same request on a fresh connection of the suite's client, as the answer it must match. */
async function alone(ctx: CheckContext, request: WireRequest): Promise<Exchange> {
  const [path, query] = request.target.split("?");
  return ctx.send({
    method: request.method,
    path: path!,
    ...(query ? { query } : {}),
    ...(request.body !== undefined ? { raw: request.body, headers: { "Content-Type": "application/json" } } : {}),
    noValidate: true,
  });
}

/** Whether a body read off the wire holds the JSON value the suite's client read (parsed and compared as it does). */
function holdsJson(body: string, json: unknown): boolean {
  try {
    return sameJson(parseJsonText(body), json);
  } catch {
    return false;
  }
}

/** Compares an answer read off the kept-alive connection with the same request sent alone. */
async function compare(ctx: CheckContext, wire: WireAnswer, request: WireRequest, how: string): Promise<void> {
  const single = await alone(ctx, request);
  const same =
    wire.status === single.response.status &&
    (request.method === "HEAD" || wire.status >= 300 || holdsJson(wire.body, single.json));
  ensure(
    same,
    `${named(request)} ${how} on a kept-alive connection answered ${wire.status} ${wire.body.slice(0, 200)}; alone it answers ${single.response.status}${wire.status === single.response.status ? " with another body" : ""}`,
    single,
  );
}

/** LAW-012: the sequence one after another on one connection, then three of it pipelined. */
async function keptAliveAsAlone(ctx: CheckContext): Promise<void> {
  // a program that hands the suite its fetch (an in-process target, D-360) has no connection to hold open
  if (ctx.config.fetch) ctx.skip("needs a connection of its own to the target; this run was given a fetch function");
  const requests = sequence(ctx);
  let connection = await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs);
  try {
    for (const [i, request] of requests.entries()) {
      if (connection.closed) connection = await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs);
      connection.write([request]);
      let answer: WireAnswer;
      try {
        answer = await connection.read(request.method);
      } catch (error) {
        throw new CheckFailure(
          `request ${i + 1} (${named(request)}) on a kept-alive connection, after ${requests
            .slice(0, i)
            .map(named)
            .join(", ")}: ${(error as Error).message}`,
        );
      }
      await compare(ctx, answer, request, `as request ${i + 1} of the connection`);
    }
    connection.close();
    connection = await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs);
    const burst = [requests[0]!, requests[1]!, requests[5]!];
    connection.write(burst);
    for (const [i, request] of burst.entries()) {
      let answer: WireAnswer;
      try {
        answer = await connection.read(request.method);
      } catch (error) {
        throw new CheckFailure(`answer ${i + 1} of 3 pipelined requests: ${(error as Error).message}`);
      }
      await compare(ctx, answer, request, `pipelined as ${i + 1} of 3`);
    }
  } finally {
    connection.close();
  }
}

/** An IMF-fixdate (RFC 9110 §5.6.7), the one form a sender generates: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const imfFixdate =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * LAW-016: every answer, success or refusal, carries a Date in IMF-fixdate that lies inside its request's wall-clock
 * window (whole seconds, give or take --clock-tolerance-ms): caches and clients age an answer by it.
 */
async function everyAnswerDated(ctx: CheckContext): Promise<void> {
  // Date is written by the HTTP server in front of a handler: a fetch handed to the suite (D-360) answers without one
  if (ctx.config.fetch) ctx.skip("judges what an HTTP server writes; this run was given a fetch function");
  const tolerance = ctx.config.clockToleranceMs;
  for (const { what, request } of [...reads(ctx), ...errorRequests]) {
    const sent = Date.now();
    const exchange = await ctx.send(request);
    const answered = Date.now();
    const date = exchange.response.headers.date;
    ensure(date !== undefined, `the answer to ${what} (${exchange.response.status}) has no Date header`, exchange);
    ensure(imfFixdate.test(date), `the answer to ${what} has Date "${date}", not an IMF-fixdate`, exchange);
    const at = Date.parse(date);
    ensure(
      at >= Math.floor(sent / 1000) * 1000 - tolerance && at <= answered + tolerance,
      `the answer to ${what} has Date ${date}, outside its request's wall-clock window by more than --clock-tolerance-ms ${tolerance}`,
      exchange,
    );
  }
}

const tags = ["laws", "http", "headers", "listOAuthProviders", "listDeployments"];

export const httpLawChecks: Check[] = [
  {
    id: "LAW-009",
    level: "SHOULD",
    tags,
    statement:
      "Every list answers 200 application/json without Accept and to Accept values with several types, q-values and wildcards that take JSON, and without a content coding to Accept-Encoding values that leave only identity (identity, gzip;q=0, *;q=0)",
    specRef: "D-373 (RFC 9110 §12.5.1, §12.5.3)",
    needs: [],
    run: negotiationHolds,
  },
  {
    id: "LAW-010",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "createDeployment"],
    statement:
      "If-None-Match with a tag the target never sent is never answered 304; a list's ETag, when sent, changes when the list changes, and If-None-Match with it answers 304 (or the same 200) only while the list is unchanged; its Last-Modified, when sent, is no older than a record created later, and If-Modified-Since with it answers 304 only while the list is unchanged",
    specRef: "D-373, D-431 (RFC 9110 §8.8.2, §8.8.3, §13.1.2, §13.1.3; RFC 9111)",
    needs: ["write", "state"],
    run: validatorsFollowChanges,
  },
  {
    id: "LAW-011",
    level: "SHOULD",
    tags,
    statement:
      "HEAD of every list operation, and of a deployment list GET refuses (limit=0), answers as GET does, with the same status, Content-Type and (when sent) Content-Length, and no body",
    specRef: "D-373 (RFC 9110 §9.3.2)",
    needs: [],
    run: headIsGetWithoutBody,
  },
  {
    id: "LAW-012",
    level: "SHOULD",
    tags,
    statement:
      "Each request on one kept-alive connection (successes, a 422, a HEAD, a 404, malformed JSON, one in absolute-form, one after another, then three pipelined) is answered as the same request alone",
    specRef: "D-373 (RFC 9112 §9.3 persistence, §9.3.2 pipelining, §3.2.2 absolute-form)",
    needs: ["server"],
    run: keptAliveAsAlone,
  },
  {
    id: "LAW-016",
    level: "SHOULD",
    tags,
    statement:
      "Every answer (each list, a 401, a 404 of an unknown path, a 405, a 422) carries a Date header in IMF-fixdate inside its request's wall-clock window, give or take --clock-tolerance-ms",
    specRef: "D-373 (RFC 9110 §6.6.1: an origin server with a clock generates Date in every 2xx, 3xx and 4xx)",
    needs: ["server"],
    run: everyAnswerDated,
  },
];
