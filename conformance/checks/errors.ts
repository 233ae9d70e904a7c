/** Checks of error answers (D-16: RFC 9457 problem details and the status of each error kind), of what must be refused (malformed JSON, enum letter case) and of the formats every answer carries. */

import { answerProblems } from "../../contract/index.js";
import { sourceFields, writeField } from "../../contract/source-rules.js";
import { ensure, expect2xx, expect4xx, expectStatus, isObject, jsonArray } from "../check-kit/assert.js";
import { undeclaredParameter } from "../check-kit/error-requests.js";
import {
  createDeployment,
  firstRepository,
  type Json,
  listDeployments,
  listProviders,
  managedReposRequest,
  paths,
  plainProvider,
  tryCreate,
} from "../check-kit/helpers.js";
import { fieldErrorFaults, problemFaults } from "../check-kit/problem-faults.js";
import { answerOnWire } from "../check-kit/wire-answers.js";
import { headerLines, jsonWireHeaders } from "../check-kit/wire-headers.js";
import { deploymentBody, plainSource, providerBody, sourcesFor } from "../model/data.js";
import { recordFormatProblems } from "../model/record-formats.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";
import { isNoVerdict } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";

const tags = ["errors"];
const jsonType = { "Content-Type": "application/json" };

/** The two create operations, by the kind of record each makes. */
type CreateKind = "deployment" | "oauth_provider";

/**
 * A valid create of `kind`: its path and a body any target takes. A check that judges only how a body is read takes
 * a deployment's, which uses none of the organization's room for providers (D-245).
 */
function validCreate(ctx: CheckContext, kind: CreateKind, label: string): { path: string; body: Json } {
  return kind === "deployment"
    ? { path: paths.deployments, body: deploymentBody(ctx.name(label), plainSource(ctx.config.hosting)) }
    : { path: paths.providers, body: providerBody(ctx.name(label)) };
}

/** Fails unless the answer is a problem detail of the type with status equal to the HTTP status. */
export function expectProblem(exchange: Exchange, type: string | undefined, what: string): void {
  const [fault] = problemFaults(
    exchange.response.status,
    exchange.response.headers["content-type"] ?? "",
    exchange.json,
  );
  ensure(fault === undefined, `${what}: ${fault}`, exchange);
  const p = exchange.json as Record<string, unknown>;
  if (type)
    ensure(p.type === type, `${what}: the problem type is ${JSON.stringify(p.type)}, expected ${type}`, exchange);
}

const edgeTags = ["edge"];

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

export const urn = (s: string) => `urn:deployment-service:problem:${s}`;

/** Error answers of the contract operations, each validated against the documented problem schema. */
async function errorSamples(ctx: CheckContext) {
  const bad = { ...deploymentBody(ctx.name("bad"), plainSource(ctx.config.hosting)), secrets: "none" };
  return [
    {
      label: "create deployment with secrets not an array",
      ex: await ctx.send({ method: "POST", path: paths.deployments, json: bad, operation: "createDeployment" }),
    },
    {
      label: "create provider without token_url",
      ex: await ctx.send({
        method: "POST",
        path: paths.providers,
        json: { ...providerBody(ctx.name("bad")), token_url: undefined },
        operation: "createOAuthProvider",
      }),
    },
    {
      label: "list deployments with limit=0",
      ex: await ctx.send({ method: "GET", path: paths.deployments, query: { limit: 0 }, operation: "listDeployments" }),
    },
    {
      label: "list deployments without a key",
      ex: await ctx.send({
        method: "GET",
        path: paths.deployments,
        auth: "none",
        tenant: "none",
        operation: "listDeployments",
      }),
    },
  ];
}

/** One refusal ERR-010 provokes: what it sends, the status D-16 gives it, and the field its errors[] names. */
interface Refusal {
  label: string;
  status: number;
  pointer?: string;
  request: SendRequest;
}

/** One refusal of each kind D-16 names; the source-rule ones from the table of D-48 and, on cloud with an integration, D-49 to D-51. */
async function refusalsOfEachKind(ctx: CheckContext): Promise<Refusal[]> {
  const hosting = ctx.config.hosting;
  const plain = plainSource(hosting);
  const body = (label: string) => deploymentBody(ctx.name(label), plain);
  const create = (json: unknown): SendRequest => ({ method: "POST", path: paths.deployments, json });
  // codehost needs a repository record: any other source of the other hosting kind will do
  const unavailable = sourcesFor[hosting === "cloud" ? "self_hosted" : "cloud"].find((s) => s !== "codehost")!;
  const forbiddenRow = sourceFields.find((row) => row.rules[plain] === "F")!;
  const forbidden = body("forbid");
  writeField(forbidden, forbiddenRow.field, forbiddenRow.sample);
  const refusals: Refusal[] = [
    {
      label: "malformed JSON",
      status: 400,
      request: { ...create(undefined), raw: '{"name": "x",', headers: { "Content-Type": "application/json" } },
    },
    {
      label: "no API key",
      status: 401,
      request: { method: "GET", path: paths.deployments, auth: "none", tenant: "none" },
    },
    { label: "an unknown route", status: 404, request: { method: "GET", path: "/v2/conformance-no-such-route" } },
    {
      label: "an unknown integration",
      status: 404,
      request: { method: "GET", path: paths.repos("00000000-0000-4000-8000-0000000000cf") },
    },
    { label: "DELETE on the deployments path", status: 405, request: { method: "DELETE", path: paths.deployments } },
    {
      label: "a body above 1 MiB",
      status: 413,
      request: create({ ...body("big"), padding: "x".repeat(1024 * 1024 + 16) }),
    },
    {
      label: "an empty JSON body",
      status: 400,
      request: { ...create(undefined), raw: "", headers: jsonType },
    },
    {
      label: "a JSON create with no body at all",
      status: 400,
      request: { ...create(undefined), headers: jsonType },
    },
    {
      label: "a form body",
      status: 415,
      request: {
        ...create(undefined),
        raw: "name=x&source=internal_template",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      },
    },
    {
      label: "limit=x",
      status: 422,
      request: { method: "GET", path: paths.deployments, query: { limit: "x" } },
    },
    { label: "source ftp", status: 422, pointer: "/source", request: create({ ...body("ftp"), source: "ftp" }) },
    {
      label: `source ${unavailable}, not available on ${hosting}`,
      status: 400,
      pointer: "/source",
      request: create(deploymentBody(ctx.name("unavail"), unavailable)),
    },
    {
      label: `${forbiddenRow.field} forbidden for ${plain}`,
      status: 400,
      pointer: `/${forbiddenRow.field.replace(".", "/")}`,
      request: create(forbidden),
    },
  ];
  if (sourcesFor[hosting].includes("external_container")) {
    const scale = deploymentBody(ctx.name("scale"), "external_container");
    writeField(scale, "source_config.resource_spec", { min_scale: 3, max_scale: 1 });
    refusals.push({
      label: "resource_spec min_scale above max_scale",
      status: 422,
      pointer: "/source_config/resource_spec/min_scale",
      request: create(scale),
    });
  }
  if (hosting === "cloud" && ctx.config.integrationId) {
    const repo = await firstRepository(ctx);
    const codehost = (label: string, fields: Record<string, unknown>) => {
      const b = deploymentBody(ctx.name(label), "codehost", repo);
      for (const [field, value] of Object.entries(fields)) writeField(b, field, value);
      return create(b);
    };
    refusals.push(
      {
        label: "a codehost repo_url of no repository of the integration",
        status: 400,
        pointer: "/source_config/repo_url",
        request: codehost("norepo", { "source_config.repo_url": `${repo.url}-${ctx.prefix}no-such-repository` }),
      },
      {
        label: "a codehost repo_ref of no branch",
        status: 400,
        pointer: "/source_revision_config/repo_ref",
        request: codehost("nobranch", { "source_revision_config.repo_ref": `${ctx.prefix}no-such-branch` }),
      },
      {
        label: "a codehost repo_ref of no tag, with build_on_push true",
        status: 400,
        pointer: "/source_config/build_on_push",
        request: codehost("notag", {
          "source_revision_config.repo_ref": `refs/tags/${ctx.prefix}no-such-tag`,
          "source_config.build_on_push": true,
        }),
      },
    );
  }
  return refusals;
}

/** ERR-010: a problem detail (D-16) whose detail, and every errors[] item's detail, is a sentence. */
function expectSentences(ex: Exchange, what: string, pointer?: string): void {
  expectProblem(ex, undefined, what);
  const p = ex.json as Record<string, unknown>;
  ensure(String(p.detail).trim() !== "", `${what}: the problem's detail is blank`, ex);
  const errors = Array.isArray(p.errors) ? p.errors : [];
  for (const [i, e] of errors.entries())
    ensure(
      isObject(e) && typeof e.detail === "string" && e.detail.trim() !== "",
      `${what}: errors[${i}] has no detail sentence`,
      ex,
    );
  if (!pointer) return;
  ensure(
    errors.some((e) => isObject(e) && e.pointer === pointer),
    `${what}: errors[] does not name ${pointer}`,
    ex,
  );
  // a source-rule 400 names its first field in the detail as a dotted path (D-47)
  const first = errors.find((e) => isObject(e) && typeof e.pointer === "string") as { pointer: string } | undefined;
  if (ex.response.status === 400 && first)
    ensure(
      String(p.detail).includes(first.pointer.slice(1).replace(/\//g, ".")),
      `${what}: the detail does not name ${first.pointer.slice(1).replace(/\//g, ".")} (D-47)`,
      ex,
    );
}

/** One body ERR-013 sends: the members it gets wrong, each once, and the pointers D-440 wants in errors[]. */
interface WrongBody {
  label: string;
  /** The body as sent: an object built from a valid one, or raw JSON text. */
  json?: unknown;
  raw?: string;
  /** Every pointer errors[] must name, and no other. */
  pointers: string[];
  /** The member breaks several keywords, so it may have an item for each (else exactly one item per pointer). */
  several?: boolean;
  /** Words the detail of the item at pointers[0] must hold (an enum's allowed values). */
  names?: string[];
}

/** Bodies of createDeployment that break the schema at known members (D-440). */
function wrongBodies(ctx: CheckContext): WrongBody[] {
  const valid = (label: string) => deploymentBody(ctx.name(label), plainSource(ctx.config.hosting));
  const edit = (label: string, fields: Record<string, unknown>, drop: string[] = []) => {
    const body = valid(label);
    for (const [field, value] of Object.entries(fields)) writeField(body, field, value);
    for (const field of drop) delete body[field];
    return body;
  };
  const spec = "/source_config/resource_spec";
  return [
    {
      label: "build_on_push a string",
      json: edit("bop", { "source_config.build_on_push": "yes" }),
      pointers: ["/source_config/build_on_push"],
    },
    {
      label: "integration_id no uuid",
      json: edit("intid", { "source_config.integration_id": "not-a-uuid" }),
      pointers: ["/source_config/integration_id"],
    },
    {
      label: "resource_spec a string",
      json: edit("rsstr", { "source_config.resource_spec": "big" }),
      pointers: [spec],
    },
    {
      label: "resource_spec min_scale -1 and a label key with / and ~ whose value is a number",
      json: edit("rsdeep", {
        "source_config.resource_spec": { min_scale: -1, labels: { "team/a~b": 5, fine: "yes" } },
      }),
      pointers: [`${spec}/min_scale`, `${spec}/labels/team~1a~0b`],
    },
    {
      label: "a sidecar without image",
      json: edit("sidecar", { "source_config.resource_spec": { sidecars: [{ name: "side" }] } }),
      pointers: [`${spec}/sidecars/0/image`],
    },
    {
      label: "a sidecar's env entry without name",
      json: edit("envname", {
        "source_config.resource_spec": { sidecars: [{ name: "side", image: "nginx:1.27", env: [{ value: "v" }] }] },
      }),
      pointers: [`${spec}/sidecars/0/env/0/name`],
    },
    {
      label: "an init container without name",
      json: edit("initname", { "source_config.resource_spec": { init_containers: [{ image: "nginx:1.27" }] } }),
      pointers: [`${spec}/init_containers/0/name`],
    },
    {
      label: "a name breaking its pattern and its length",
      json: edit("name", { name: `1${"_".repeat(70)}` }),
      pointers: ["/name"],
      several: true,
    },
    {
      label: "source ftp",
      json: edit("ftp", { source: "ftp" }),
      pointers: ["/source"],
      names: ["codehost", "external_container", "internal_container", "internal_source", "internal_template"],
    },
    {
      label: "no name and no secrets",
      json: edit("missing", {}, ["name", "secrets"]),
      pointers: ["/name", "/secrets"],
    },
    {
      label: "a secret without name",
      json: edit("secret", { secrets: [{ value: "v" }] }),
      pointers: ["/secrets/0/name"],
    },
    { label: "a JSON array as the body", raw: "[1]", pointers: [""] },
  ];
}

/** The value a JSON Pointer (RFC 6901) names in a document, or undefined when it names none. */
function resolvePointer(document: unknown, pointer: string): { value: unknown } | undefined {
  if (pointer === "") return { value: document };
  if (!pointer.startsWith("/")) return undefined;
  let value = document;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < value.length)
      value = value[Number(segment)];
    else if (isObject(value) && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return { value };
}

export const errorChecks: Check[] = [
  {
    id: "ERR-001",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "createOAuthProvider", "listDeployments"],
    statement:
      "Error answers are application/problem+json with type, title, status (= HTTP status) and detail, and match the documented schema",
    specRef: "D-16 (RFC 9457 problem details)",
    needs: ["server"],
    async run(ctx) {
      for (const { label, ex } of await errorSamples(ctx)) {
        ensure(ex.response.status >= 400, `${label}: expected an error, got ${ex.response.status}`, ex);
        expectProblem(ex, undefined, label);
        const problems = answerProblems(ex.operation!, {
          status: ex.response.status,
          contentType: ex.response.headers["content-type"],
          body: ex.json,
        });
        ensure(
          problems.length === 0,
          `${label}: the ${ex.response.status} answer does not match the contract: ${problems.join("; ")}`,
          ex,
        );
      }
    },
  },
  {
    id: "ERR-002",
    level: "SHOULD",
    tags: [...tags, "validation", "createDeployment"],
    statement: "A 422 carries errors[] whose pointer names each failing body field",
    specRef: "D-16 (errors: [{pointer | parameter, detail}])",
    needs: ["server"],
    async run(ctx) {
      const body = deploymentBody(ctx.name("bad"), plainSource(ctx.config.hosting));
      delete body.secrets;
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: { ...body, source: "ftp" },
        operation: "createDeployment",
      });
      expectStatus(ex, 422, "create deployment without secrets and with source ftp");
      expectProblem(ex, urn("validation"), "422 answer");
      const pointers =
        isObject(ex.json) && Array.isArray(ex.json.errors)
          ? (ex.json.errors as { pointer?: string }[]).map((e) => e.pointer)
          : [];
      for (const want of ["/secrets", "/source"])
        ensure(
          pointers.includes(want),
          `errors[] has no entry with pointer ${want} (has ${JSON.stringify(pointers)})`,
          ex,
        );
    },
  },
  {
    id: "ERR-003",
    level: "SHOULD",
    tags: [...tags, "createDeployment"],
    statement: "A body that is not well-formed JSON answers 400 of type malformed-json",
    specRef: "D-16 (400 for malformed JSON)",
    needs: ["server"],
    async run(ctx) {
      for (const path of [paths.deployments, paths.providers]) {
        const ex = await ctx.send({
          method: "POST",
          path,
          raw: '{"name": "x",',
          headers: { "Content-Type": "application/json" },
        });
        expectStatus(ex, 400, `POST ${path} with malformed JSON`);
        expectProblem(ex, urn("malformed-json"), "400 answer");
      }
    },
  },
  {
    id: "ERR-004",
    level: "SHOULD",
    tags: [...tags, "createDeployment"],
    statement: "A body that is not application/json answers 415",
    specRef: "D-16 (415 for a body that is not JSON)",
    needs: ["server"],
    async run(ctx) {
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        raw: "name=x&source=internal_template",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expectStatus(ex, 415, `POST ${paths.deployments} with a form body`);
      expectProblem(ex, urn("unsupported-media-type"), "415 answer");
    },
  },
  {
    id: "ERR-005",
    level: "SHOULD",
    tags: [...tags, "routes"],
    statement: "An unknown route answers 404 problem",
    specRef: "D-16 (404 unknown route)",
    needs: ["state"],
    async run(ctx) {
      const ex = await ctx.send({ method: "GET", path: "/v2/conformance-no-such-route" });
      expectStatus(ex, 404, "GET an unknown route");
      expectProblem(ex, urn("not-found"), "404 answer");
    },
  },
  {
    id: "ERR-006",
    level: "SHOULD",
    tags: [...tags, "routes"],
    statement: "A method not allowed on a known path answers 405 with an Allow header listing the allowed methods",
    specRef: "D-16 (405 with Allow on a known path)",
    needs: ["state"],
    async run(ctx) {
      for (const [path, allowed] of [
        [paths.deployments, ["GET", "POST"]],
        [paths.providers, ["GET", "POST"]],
      ] as const) {
        const ex = await ctx.send({ method: "DELETE", path });
        expectStatus(ex, 405, `DELETE ${path}`);
        const allow = (ex.response.headers.allow ?? "").split(",").map((m) => m.trim().toUpperCase());
        for (const m of allowed)
          ensure(allow.includes(m), `the Allow header '${ex.response.headers.allow ?? ""}' does not list ${m}`, ex);
        expectProblem(ex, urn("method-not-allowed"), "405 answer");
      }
    },
  },
  {
    id: "ERR-007",
    level: "SHOULD",
    tags: [...tags, "limits", "createDeployment"],
    statement:
      "A body above 1 MiB answers 413, whether it declares its length or is sent chunked without one; a body declared at 2 MiB of which the client sends only the first KiB is answered 413 without the rest (on a connection of the suite's own)",
    specRef:
      "D-16, D-30 to D-32 (413 above 1 MiB of body, however it is framed: RFC 9112 §6), D-443 (a declared body refused before it is read is drained at most 2 s, then answered)",
    needs: ["state"],
    async run(ctx) {
      const body = {
        ...deploymentBody(ctx.name("big"), plainSource(ctx.config.hosting)),
        padding: "x".repeat(1024 * 1024 + 16),
      };
      // a server that bounds only the declared Content-Length takes any body a client streams
      for (const streamed of [false, true]) {
        const ex = await ctx.send({
          method: "POST",
          path: paths.deployments,
          raw: JSON.stringify(body),
          headers: jsonType,
          ...(streamed ? { streamed } : {}),
        });
        const framing = streamed ? "sent chunked, no Content-Length" : "its Content-Length declared";
        expectStatus(ex, 413, `POST ${paths.deployments} with a 1 MiB body, ${framing}`);
        expectProblem(ex, urn("payload-too-large"), `413 answer to a body ${framing}`);
      }
      // last, so a server with no bound fails above without this wait: one that judges only the bytes it has read
      // waits for a declared body that never comes
      if (!ctx.config.fetch) {
        const stalled = await answerOnWire(ctx, (c) => {
          const head = headerLines({ ...jsonWireHeaders(ctx), "Content-Type": "application/json" });
          return `POST ${c.basePath}${paths.deployments} HTTP/1.1\r\nHost: ${c.host}\r\n${head}Content-Length: ${2 * 1024 * 1024}\r\nConnection: close\r\n\r\n{"name":"${"x".repeat(1024)}`;
        });
        ensure(
          stalled?.status === 413,
          `POST ${paths.deployments} declaring 2 MiB of body and sending 1 KiB of it was ${stalled ? `answered ${stalled.status}` : `left unanswered for ${ctx.config.timeoutMs} ms`}, not 413 without the rest`,
        );
      }
    },
  },
  {
    id: "ERR-008",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "createOAuthProvider"],
    statement: "A 409 is a problem of type conflict",
    specRef: "D-16, D-37/D-38",
    needs: ["write", "state"],
    async run(ctx) {
      // a provider the organization holds: the run's shared one (D-245)
      const { body } = await plainProvider(ctx);
      const ex = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: body,
        operation: "createOAuthProvider",
        noValidate: true,
      });
      expectStatus(ex, 409, "create a provider with a duplicate provider_id");
      expectProblem(ex, urn("conflict"), "409 answer");
    },
  },
  {
    id: "ERR-009",
    level: "SHOULD",
    tags: [...tags, "secrets"],
    statement: "No error answer echoes the client_secret or a secret value sent",
    specRef: "D-54/D-55 (secrets never appear in a response)",
    needs: [],
    async run(ctx) {
      const secret = `cf-err-secret-${ctx.config.runId}`;
      const body = { ...providerBody(ctx.name("bad")), client_secret: secret, uses_pkce: "yes" };
      const ex = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: body,
        operation: "createOAuthProvider",
      });
      ensure(ex.response.status >= 400, `a provider with uses_pkce "yes" was accepted (${ex.response.status})`, ex);
      ensure(!JSON.stringify(ex.json ?? "").includes(secret), "the error answer echoes the client_secret", ex);
    },
  },
  {
    id: "ERR-010",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "listDeployments", "source-rules"],
    statement:
      "A refusal of each kind (400 malformed JSON, an empty JSON body and none at all, 401, 404 of a route and of an integration, 405, 409, 413, 415, 422 of a parameter and of the body, 400 of a source rule) is a problem detail whose detail and every errors[] item's detail are non-empty sentences, a field refusal naming its field",
    specRef:
      "D-16 (detail: a sentence a client can act on; errors: [{pointer | parameter, detail}]), D-47, D-49 to D-51",
    needs: ["write", "server"],
    async run(ctx) {
      const { body: duplicate } = await plainProvider(ctx);
      const refusals: Refusal[] = [
        ...(await refusalsOfEachKind(ctx)),
        {
          label: "a duplicate provider_id",
          status: 409,
          request: { method: "POST", path: paths.providers, json: duplicate },
        },
      ];
      for (const r of refusals) {
        const ex = await ctx.send(r.request);
        if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
          ctx.created({ kind: "deployment", id: ex.json.id, name: String(ex.json.name), key: "main" });
        expectStatus(ex, r.status, r.label);
        expectSentences(ex, `${r.status} of ${r.label}`, r.pointer);
      }
    },
  },
  {
    id: "EDGE-004",
    level: "MUST",
    tags: [...edgeTags, "formats", "createDeployment", "listDeployments", "createOAuthProvider", "listOAuthProviders"],
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
        const p = await plainProvider(ctx);
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
      for (const request of [
        ctx.config.integrationId && { method: "GET", path: paths.repos(ctx.config.integrationId) },
        ctx.config.managedIntegrationId && {
          ...managedReposRequest(ctx, ctx.config.managedIntegrationId),
          operation: undefined,
        },
      ]) {
        if (!request) continue;
        const ex = await ctx.send(request);
        expect2xx(ex, `${request.method} ${request.path}`);
        judge(ex, "repository", jsonArray(ex, `${request.method} ${request.path}`));
      }
    },
  },
  {
    id: "EDGE-005",
    level: "MUST",
    tags: [...edgeTags, "validation", "enum-case", "createDeployment", "createOAuthProvider"],
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
    id: "EDGE-011",
    level: "SHOULD",
    tags: [...edgeTags, "errors"],
    statement: "Every problem answer carries status equal to the HTTP status (400, 401, 403, 404, 405, 409, 415, 422)",
    specRef: "D-16 (status equal to the HTTP status)",
    needs: ["server", "state"],
    async run(ctx) {
      const dup = ctx.config.readOnly ? undefined : (await plainProvider(ctx)).body;
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
    tags: [...edgeTags, "validation", "createDeployment", "createOAuthProvider"],
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
    id: "ERR-011",
    level: "SHOULD",
    tags: [...tags, "createDeployment"],
    statement:
      "A create body with a Content-Encoding other than identity answers 415, an unsupported-media-type problem with its detail and Accept-Encoding: identity; the same body labelled identity, in any letter case, is taken as it is",
    specRef: "D-115 (RFC 9110 §8.4.1, §15.5.16: a content coding the server does not apply is 415)",
    needs: ["write", "server"],
    async run(ctx) {
      // a plain JSON body labelled with the coding: only identity says how it is sent
      const createLabelled = (coding: string) =>
        tryCreate(
          ctx,
          {
            path: paths.deployments,
            raw: JSON.stringify(deploymentBody(ctx.name(coding), plainSource(ctx.config.hosting))),
            headers: { "Content-Type": "application/json", "Content-Encoding": coding },
          },
          "deployment",
        );
      const coded = await createLabelled("gzip");
      expectStatus(coded, 415, "a create labelled Content-Encoding: gzip whose body is not gzip");
      expectProblem(coded, urn("unsupported-media-type"), "the 415 of Content-Encoding: gzip");
      const accept = coded.response.headers["accept-encoding"] ?? "";
      ensure(/\bidentity\b/i.test(accept), `the 415 names no acceptable coding (Accept-Encoding: '${accept}')`, coded);
      // content-coding names are case-insensitive (RFC 9110 §8.4.1)
      for (const coding of ["identity", "IDENTITY"])
        expect2xx(await createLabelled(coding), `a create labelled Content-Encoding: ${coding}`);
    },
  },
  {
    id: "ERR-012",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement:
      "A request target longer than 8 KiB answers 414, a problem of type uri-too-long with its detail, whether or not the head then passes 16 KiB (20,000 and 100,000 bytes: a 414, not 431); a target of exactly 8,192 bytes is not refused as too long",
    specRef: "D-115 (RFC 9110 §15.5.15: 414 uri-too-long for a target above 8 KiB)",
    needs: ["server"],
    async run(ctx) {
      const list = (targetBytes: number) => {
        const path = `${paths.deployments}?name_contains=`;
        return ctx.send({ method: "GET", path: `${path}${"a".repeat(targetBytes - path.length)}` });
      };
      // past 16 KiB the target alone fills a head: the 414 names the target, not the head (431)
      for (const bytes of [9 * 1024, 8193, 20_000, 100_000]) {
        const ex = await list(bytes);
        expectStatus(ex, 414, `a list whose request target is ${bytes} bytes`);
        expectProblem(ex, urn("uri-too-long"), `the 414 of a ${bytes}-byte target`);
      }
      const atBound = await list(8192);
      ensure(
        atBound.response.status !== 414,
        "a list whose request target is exactly 8,192 bytes answered 414",
        atBound,
      );
    },
  },
  {
    id: "ERR-013",
    level: "SHOULD",
    tags: [...tags, "validation", "createDeployment"],
    statement:
      "A 422 of a body that breaks the schema lists one errors[] item for each member it got wrong and no other: the pointer (RFC 6901, '/' and '~' escaped) of that member, of a missing required member under its existing parent, or '' for the whole body; no item for an ancestor of a named member (the noise of nullable and anyOf schemas), none for a member that was fine, no two alike; each with a detail, an enum's naming the allowed values",
    specRef:
      "D-440, D-16 (errors: [{pointer | parameter, detail}]), D-25, D-65 (container and env entry names required)",
    needs: ["server"],
    async run(ctx) {
      for (const body of wrongBodies(ctx)) {
        const ex = await ctx.send({
          method: "POST",
          path: paths.deployments,
          ...(body.raw === undefined
            ? { json: body.json }
            : { raw: body.raw, headers: { "Content-Type": "application/json" } }),
        });
        if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
          ctx.created({ kind: "deployment", id: ex.json.id, name: String(ex.json.name), key: "main" });
        expectStatus(ex, 422, body.label);
        expectProblem(ex, urn("validation"), `422 of ${body.label}`);
        const sent = body.raw === undefined ? body.json : JSON.parse(body.raw);
        const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? (ex.json.errors as unknown[]) : [];
        const seen = new Set<string>();
        for (const [i, e] of errors.entries()) {
          const what = `${body.label}: errors[${i}] ${JSON.stringify(e)}`;
          ensure(isObject(e) && typeof e.pointer === "string", `${what} has no pointer string`, ex);
          const item = e as { pointer: string; detail?: unknown };
          ensure(typeof item.detail === "string" && item.detail.trim() !== "", `${what} has no detail`, ex);
          const key = JSON.stringify([item.pointer, item.detail]);
          ensure(!seen.has(key), `${what} is listed twice`, ex);
          seen.add(key);
          const parent = item.pointer.slice(0, Math.max(0, item.pointer.lastIndexOf("/")));
          ensure(
            resolvePointer(sent, item.pointer) !== undefined ||
              (item.pointer !== "" && resolvePointer(sent, parent) !== undefined),
            `${what}: the pointer names no member of the body sent, nor a member of one`,
            ex,
          );
        }
        const named = [...new Set(errors.map((e) => (e as { pointer: string }).pointer))].sort();
        const want = [...body.pointers].sort();
        ensure(
          JSON.stringify(named) === JSON.stringify(want),
          `${body.label}: errors[] names ${JSON.stringify(named)}, expected exactly ${JSON.stringify(want)} (one item for each wrong member, none for its ancestors)`,
          ex,
        );
        ensure(
          body.several === true || errors.length === want.length,
          `${body.label}: errors[] has ${errors.length} items for ${want.length} member(s) each wrong once (the 'must be null' of a nullable schema is no item)`,
          ex,
        );
        if (body.names) {
          const detail = String(
            (errors.find((e) => (e as { pointer: string }).pointer === want[0]) as { detail?: unknown })?.detail,
          );
          const missing = body.names.filter((name) => !detail.includes(name));
          ensure(
            missing.length === 0,
            `${body.label}: the detail '${detail}' does not name the allowed value(s) ${missing.join(", ")}`,
            ex,
          );
        }
      }
    },
  },
  {
    id: "ERR-014",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "media-type"],
    statement:
      "A create body labelled application/json or application/*+json in any letter case, with parameters in any order and charset absent or UTF-8 (quoted or not, utf8 too), is taken; another charset, a +json suffix followed by more, or a type other than application is 415",
    specRef: "D-442, D-24 (415 for a body that is not JSON)",
    needs: ["write", "server"],
    async run(ctx) {
      const post = (label: string, contentType: string, kind: CreateKind = "oauth_provider") => {
        const { path, body } = validCreate(ctx, kind, label);
        return tryCreate(ctx, { path, raw: JSON.stringify(body), headers: { "Content-Type": contentType } }, kind);
      };
      // one label taken on each create operation, the others on deployments (validCreate)
      for (const [label, contentType, kind] of [
        ["upper", "Application/JSON", "oauth_provider"],
        ["upperdep", "Application/JSON", "deployment"],
        ["quoted", 'application/json; charset="UTF-8"', "deployment"],
        ["utf8", "application/json;charset=utf8", "deployment"],
        ["suffix", "application/vnd.example+json", "deployment"],
        ["params", "application/json; version=1; charset=utf-8", "deployment"],
      ] as const)
        expect2xx(await post(label, contentType, kind), `a create labelled Content-Type: ${contentType}`);
      for (const [label, contentType] of [
        ["latin", "application/json; charset=iso-8859-1"],
        ["seq", "application/geo+json-seq"],
        ["xtype", "x-application/vnd.example+json"],
      ] as const) {
        const ex = await post(label, contentType);
        expectStatus(ex, 415, `a create labelled Content-Type: ${contentType}`);
        expectProblem(ex, urn("unsupported-media-type"), `415 of Content-Type: ${contentType}`);
      }
    },
  },
  {
    id: "ERR-015",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "fidelity"],
    statement:
      "A body that parsing would change is 422 naming where: a number a 64-bit float does not hold as written (1e400, 9007199254740993, 1e-400) or an array nested deeper than 32 levels, even in a member the schema does not know, and a member given twice in its object (a parse keeps one); a number a float holds in any spelling (1E3, 2.50) is taken",
    specRef: "D-281 (what parsing would change in a body; RFC 8259 §4: names unique), D-16 (422 with errors[].pointer)",
    needs: ["write", "server"],
    async run(ctx) {
      /** A create whose text ends with the members `tail` (`,"extra":1`), written as is. */
      const post = (label: string, tail: string, kind: CreateKind = "oauth_provider") => {
        const { path, body } = validCreate(ctx, kind, label);
        const text = JSON.stringify(body);
        return tryCreate(ctx, { path, raw: `${text.slice(0, -1)}${tail}}`, headers: jsonType }, kind);
      };
      // taken on a deployment create (validCreate)
      for (const [label, number] of [
        ["exp", "1E3"],
        ["trail", "2.50"],
      ] as const)
        expect2xx(await post(label, `,"extra":${number}`, "deployment"), `a create holding ${number}`);
      // the body is level 1 and "extra" level 2, so the first level past 32 is the 31st element down
      const tooDeep = { text: `${"[".repeat(40)}${"]".repeat(40)}`, pointer: `/extra${"/0".repeat(31)}` };
      for (const { label, tail, pointer } of [
        { label: "1e400", tail: ',"extra":1e400', pointer: "/extra" },
        { label: "2^53+1", tail: ',"extra":9007199254740993', pointer: "/extra" },
        { label: "1e-400", tail: ',"extra":[1, 1e-400]', pointer: "/extra/1" },
        { label: "40 nested arrays", tail: `,"extra":${tooDeep.text}`, pointer: tooDeep.pointer },
        // a reader that keeps the first of two members stores another name than one that keeps the last
        { label: "its name given twice", tail: `,"name":${JSON.stringify(ctx.name("twice"))}`, pointer: "/name" },
      ]) {
        const ex = await post("fidelity", tail);
        expectStatus(ex, 422, `a create holding ${label}`);
        const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
        ensure(
          errors.some((e) => isObject(e) && e.pointer === pointer),
          `a create holding ${label}: errors[] does not name ${pointer}`,
          ex,
        );
        expectSentences(ex, `422 of ${label}`);
      }
    },
  },
  {
    id: "ERR-016",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "fidelity"],
    statement:
      "A body whose bytes are not UTF-8 is 400 malformed-json, never read with U+FFFD in their place: a byte 0xFF, an overlong encoding, an encoded surrogate and a sequence cut short, each inside a string the schema takes as any text",
    specRef: "D-281 (RFC 8259 §8.1: JSON text is UTF-8), interface-spec: Errors (400 for malformed JSON)",
    needs: ["write", "server"],
    async run(ctx) {
      const encoder = new TextEncoder();
      for (const { label, bytes } of [
        { label: "a byte 0xFF", bytes: [0xff] },
        { label: "an overlong encoding of '/' (C0 AF)", bytes: [0xc0, 0xaf] },
        { label: "a surrogate encoded as UTF-8 (ED A0 80)", bytes: [0xed, 0xa0, 0x80] },
        { label: "a sequence cut short (E2 82)", bytes: [0xe2, 0x82] },
      ]) {
        const body = providerBody(ctx.name("utf8"));
        // the bytes stand inside the provider's display name, which takes any text: only the decoding can refuse it
        const [before, after] = JSON.stringify({ ...body, name: `${String(body.name)} MARK` }).split("MARK") as [
          string,
          string,
        ];
        const raw = new Uint8Array([...encoder.encode(before), ...bytes, ...encoder.encode(after)]);
        const ex = await tryCreate(ctx, { path: paths.providers, raw, headers: jsonType }, "oauth_provider");
        expectStatus(ex, 400, `a create whose name holds ${label}`);
        expectProblem(ex, urn("malformed-json"), `400 of a body holding ${label}`);
      }
    },
  },
  {
    id: "ERR-024",
    level: "SHOULD",
    tags: [...tags, "listDeployments", "listOAuthProviders"],
    statement:
      "A list given a query parameter it does not declare (cf_unknown_parameter=1) is answered as without it (2xx) or refused with a 4xx problem whose errors are field errors of the contract, never 5xx",
    specRef:
      "D-310 (an undeclared query name is 422 validation, or ignored by a production server), D-16 (errors[] of pointer or parameter with detail), D-26 (5xx only for the server's own faults)",
    needs: ["server"],
    async run(ctx) {
      for (const [path, operation] of [
        [paths.deployments, "listDeployments"],
        [paths.providers, "listOAuthProviders"],
      ] as const) {
        const ex = await ctx.send({
          method: "GET",
          path,
          query: undeclaredParameter,
          operation,
          noValidate: true,
        });
        const what = `GET ${path}?${new URLSearchParams(undeclaredParameter)}`;
        ensure(
          ex.response.status < 500,
          `${what}: answered ${ex.response.status}, a server error for a client's query`,
          ex,
        );
        if (ex.response.status < 400) continue;
        expectProblem(ex, undefined, what);
        const [fault] = fieldErrorFaults(ex.json);
        ensure(fault === undefined, `${what}: the problem's ${fault}`, ex);
      }
    },
  },
];
