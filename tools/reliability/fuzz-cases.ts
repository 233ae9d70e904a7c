/**
 * Deterministic generator of invalid and hostile requests for the fuzz run: wrong types, missing
 * fields, huge strings and arrays, deep nesting, bad UTF-8, non-JSON bodies, wrong content types, header
 * tricks, path traversal, bad methods, query abuse and protocol odds, across every operation of the
 * contract. The same seed gives the same requests. No case is a valid create, so none may change the data.
 */
import { seededRandom } from "../../common/seeded-random.js";
import { jsonCorpus } from "../../conformance/model/json-corpus.js";
import { naughtyStrings } from "../../conformance/model/naughty-strings.js";
import { bareSchema } from "../../conformance/model/request-fields.js";
import { wrongTypeCases } from "../../conformance/model/wrong-types.js";
import { type demo, operation, type SchemaObject } from "../../contract/index.js";

/** The demo data (D-77) and what the fuzz run prepared in it. */
export interface FuzzContext {
  acme: (typeof demo)["acme"];
  globex: (typeof demo)["globex"];
  /** A deployment name that exists in acme-production (duplicate creates must be 409). */
  existingDeploymentName: string;
  /** A provider_id that exists in the Acme organization (duplicate creates must be 409). */
  existingProviderId: string;
}

type Bytes = string | Buffer;

export interface FuzzCase {
  index: number;
  category: string;
  /** What it aims at, e.g. "POST /v2/deployments" or "path". */
  operation: string;
  variant: string;
  method: string;
  target: Bytes;
  headers: [string, Bytes][];
  body?: Buffer;
  /** Whether the harness adds Content-Length for the body (false when the case sets its own framing). */
  autoLength: boolean;
  /** Whether the harness adds a Host header. */
  host: boolean;
  /** The version ending the request line; "" for an HTTP/0.9 line, which has none. */
  version: string;
  /** The status the case must get, where the contract's decisions name one (D-310). */
  expectStatus?: number;
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const between = (rng: Rng, low: number, high: number): number => low + Math.floor(rng() * (high - low + 1));

const deploymentsPath = operation("listDeployments").path;
const providersPath = operation("listOAuthProviders").path;
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/** A create body that would be accepted (an internal template) — every maker breaks it in some way. */
function validDeployment(name: string): Record<string, unknown> {
  return { name, source: "internal_template", source_config: {}, source_revision_config: {}, secrets: [] };
}

function validProvider(providerId: string): Record<string, unknown> {
  return {
    provider_id: providerId,
    name: "Fuzz",
    client_id: "fuzz-client",
    auth_url: "https://auth.example/authorize",
    token_url: "https://auth.example/token",
  };
}

const createSchema = (id: "createDeployment" | "createOAuthProvider") =>
  operation(id).requestBody?.schema as SchemaObject;
/** Each member of both create bodies with each JSON type its schema excludes (D-500): every one breaks the schema. */
const deploymentWrongTypes = wrongTypeCases(createSchema("createDeployment"));
const providerWrongTypes = wrongTypeCases(createSchema("createOAuthProvider"));
/** The members each create body requires, as the contract declares them. */
const deploymentRequired = bareSchema(createSchema("createDeployment")).required ?? [];
const providerRequired = bareSchema(createSchema("createOAuthProvider")).required ?? [];
/** The texts JSONTestSuite says a parser must reject. */
const rejectedTexts = jsonCorpus.filter((c) => c.kind === "reject").map((c) => c.text);
/**
 * Bytes that are not UTF-8, one of each class RFC 3629 §3 rules out: the corpus of JSONTestSuite comes as text with
 * U+FFFD in their place, so no installed corpus holds them as bytes.
 */
const badUtf8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x80, 0x81, 0x82]),
];

interface Draft {
  category: string;
  operation: string;
  variant: string;
  method: string;
  target: Bytes;
  headers?: [string, Bytes][];
  body?: Buffer;
  autoLength?: boolean;
  host?: boolean;
  /** Send the acme key (default true). */
  auth?: boolean;
  /** Default "HTTP/1.1". */
  version?: string;
  expectStatus?: number;
}

type Maker = (rng: Rng, ctx: FuzzContext, index: number) => Draft;

function post(
  category: string,
  path: string,
  variant: string,
  body: Buffer,
  headers: [string, Bytes][] = [["content-type", "application/json"]],
): Draft {
  return { category, operation: `POST ${path}`, variant, method: "POST", target: path, headers, body };
}

/** A copy of `body` with `value` at `keys` (`[]` for an array's first item), the objects and arrays on the way made. */
function placed(body: Record<string, unknown>, keys: readonly (string | "[]")[], value: unknown): unknown {
  const [key, ...rest] = keys;
  if (key === undefined) return value;
  if (key === "[]") return [placed({}, rest, value)];
  const inner = body[key];
  const next = inner !== null && typeof inner === "object" && !Array.isArray(inner) ? inner : {};
  return { ...body, [key]: placed(next as Record<string, unknown>, rest, value) };
}

function nest(depth: number, leaf: unknown, asArray: boolean): string {
  return (
    (asArray ? "[".repeat(depth) : '{"a":'.repeat(depth)) + JSON.stringify(leaf) + (asArray ? "]" : "}").repeat(depth)
  );
}

const makers: Maker[] = [
  // Each member of both create bodies, at any depth, with a JSON type its schema excludes.
  (rng, _ctx, i) => {
    const deployment = rng() < 0.6;
    const body = deployment ? validDeployment(`fz-type-${i}`) : validProvider(`fz-type-${i}`);
    const wrong = pick(rng, deployment ? deploymentWrongTypes : providerWrongTypes);
    return post(
      "wrong-type",
      deployment ? deploymentsPath : providersPath,
      `${wrong.path}=${JSON.stringify(wrong.value)}`,
      json(placed(body, wrong.keys, wrong.value)),
    );
  },
  // Missing required fields.
  (rng, _ctx, i) => {
    const deployment = rng() < 0.6;
    const body = deployment ? validDeployment(`fz-missing-${i}`) : validProvider(`fz-missing-${i}`);
    const required: readonly string[] = deployment ? deploymentRequired : providerRequired;
    const removed = required.filter(() => rng() < 0.3);
    if (removed.length === 0) removed.push(pick(rng, required));
    for (const field of removed) delete body[field];
    const asEmpty = rng() < 0.1;
    return post(
      "missing-field",
      deployment ? deploymentsPath : providersPath,
      asEmpty ? "{}" : removed.join("+"),
      asEmpty ? json({}) : json(body),
    );
  },
  // Huge strings in bodies and in query values.
  (rng, _ctx, i) => {
    const variant = pick(rng, [
      "name",
      "secret-value",
      "install-command-413",
      "repo-url",
      "provider-name",
      "auth-url",
      "client-secret",
      "name-contains",
      "image-version",
    ]);
    const size = between(rng, 2_049, 200_000);
    switch (variant) {
      case "name":
        return post(
          "huge-string",
          deploymentsPath,
          variant,
          json(validDeployment(`f${"z".repeat(between(rng, 63, 100_000))}`)),
        );
      case "secret-value":
        return post(
          "huge-string",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-huge-${i}`),
            secrets: [{ name: "S", value: "v".repeat(between(rng, 65_537, 300_000)) }],
          }),
        );
      case "install-command-413":
        return post(
          "huge-string",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-huge-${i}`),
            source_config: { install_command: "x".repeat(between(rng, 1_048_577, 1_300_000)) },
          }),
        );
      case "repo-url":
        return post(
          "huge-string",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-huge-${i}`),
            source_config: { repo_url: `https://codehost.example/${"a".repeat(size)}` },
          }),
        );
      case "provider-name":
        return post(
          "huge-string",
          providersPath,
          variant,
          json({ ...validProvider(`fz-huge-${i}`), name: "n".repeat(between(rng, 256, 100_000)) }),
        );
      case "auth-url":
        return post(
          "huge-string",
          providersPath,
          variant,
          json({ ...validProvider(`fz-huge-${i}`), auth_url: `https://auth.example/${"p".repeat(size)}` }),
        );
      case "client-secret":
        return post(
          "huge-string",
          providersPath,
          variant,
          json({ ...validProvider(`fz-huge-${i}`), client_id: "", client_secret: "s".repeat(size) }),
        );
      case "name-contains":
        return {
          category: "huge-string",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: `${deploymentsPath}?name_contains=${"q".repeat(between(rng, 1_000, 12_000))}`,
        };
      default:
        return {
          category: "huge-string",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: `${deploymentsPath}?image_version=${"v".repeat(between(rng, 1_000, 12_000))}`,
        };
    }
  },
  // Huge arrays.
  (rng, _ctx, i) => {
    const variant = pick(rng, [
      "secrets",
      "secret-references",
      "top-level-array",
      "deployment-ids",
      "volumes",
      "secrets-bad-items",
    ]);
    const n = between(rng, 101, 5_000);
    switch (variant) {
      case "secrets":
        return post(
          "huge-array",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-array-${i}`),
            secrets: Array.from({ length: n }, (_, k) => ({ name: `S${k}`, value: "v" })),
          }),
        );
      case "secret-references":
        return post(
          "huge-array",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-array-${i}`),
            secret_references: Array.from({ length: n }, (_, k) => ({
              name: `R${k}`,
              secret_name: "s",
              secret_key: "k",
            })),
          }),
        );
      case "top-level-array":
        return post(
          "huge-array",
          pick(rng, [deploymentsPath, providersPath]),
          variant,
          json(Array.from({ length: n * 20 }, (_, k) => k)),
        );
      case "deployment-ids": {
        const ids = Array.from(
          { length: between(rng, 101, 200) },
          (_, k) => `00000000-0000-4000-8000-${String(k).padStart(12, "0")}`,
        );
        return {
          category: "huge-array",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: `${deploymentsPath}?deployment_ids=${ids.join(",")}`,
        };
      }
      case "volumes":
        return post(
          "huge-array",
          deploymentsPath,
          variant,
          json({
            ...validDeployment(`fz-array-${i}`),
            source_config: {
              resource_spec: { volumes: Array.from({ length: n }, (_, k) => ({ name: `v${k}`, emptyDir: {} })) },
            },
          }),
        );
      default:
        return post(
          "huge-array",
          deploymentsPath,
          variant,
          json({ ...validDeployment(`fz-array-${i}`), secrets: Array.from({ length: n }, () => null) }),
        );
    }
  },
  // Deep nesting of objects and arrays at several places.
  (rng, _ctx, i) => {
    const depth = pick(rng, [64, 1_000, 10_000, 100_000]);
    const asArray = rng() < 0.5;
    const place = pick(rng, ["top", "name", "source_config", "labels", "secret", "provider", "query"]);
    const deep = nest(depth, "x", asArray);
    const base = JSON.stringify(validDeployment(`fz-deep-${i}`));
    switch (place) {
      case "top":
        return post("deep-nesting", deploymentsPath, `${place}-${depth}`, Buffer.from(deep));
      case "name":
        return post(
          "deep-nesting",
          deploymentsPath,
          `${place}-${depth}`,
          Buffer.from(base.replace(`"fz-deep-${i}"`, deep)),
        );
      case "source_config":
        return post(
          "deep-nesting",
          deploymentsPath,
          `${place}-${depth}`,
          Buffer.from(base.replace('"source_config":{}', `"source_config":{"listener_config":${deep}}`)),
        );
      case "labels":
        return post(
          "deep-nesting",
          deploymentsPath,
          `${place}-${depth}`,
          Buffer.from(base.replace('"source_config":{}', `"source_config":{"resource_spec":{"labels":{"k":${deep}}}}`)),
        );
      case "secret":
        return post(
          "deep-nesting",
          deploymentsPath,
          `${place}-${depth}`,
          Buffer.from(base.replace('"secrets":[]', `"secrets":[${deep}]`)),
        );
      case "provider":
        return post(
          "deep-nesting",
          providersPath,
          `${place}-${depth}`,
          Buffer.from(JSON.stringify(validProvider(`fz-deep-${i}`)).replace('"name":"Fuzz"', `"name":${deep}`)),
        );
      default:
        return {
          category: "deep-nesting",
          operation: `GET ${deploymentsPath}`,
          variant: "query-brackets",
          method: "GET",
          target: `${deploymentsPath}?${"status[".repeat(Math.min(depth, 500))}=1`,
        };
    }
  },
  // Invalid UTF-8 in bodies, paths, queries and headers.
  (rng, ctx, i) => {
    const bytes = pick(rng, badUtf8);
    const variant = pick(rng, [
      "body-name",
      "body-provider-id",
      "body-key",
      "query-raw",
      "query-encoded",
      "path-raw",
      "path-encoded",
      "tenant-header",
      "key-header",
    ]);
    switch (variant) {
      case "body-name":
        // The name breaks the name pattern whatever a decoder makes of the bytes.
        return post(
          "bad-utf8",
          deploymentsPath,
          variant,
          Buffer.concat([
            Buffer.from(`{"name":"fz_${i}`),
            bytes,
            Buffer.from(`","source":"internal_template","source_config":{},"source_revision_config":{},"secrets":[]}`),
          ]),
        );
      case "body-provider-id":
        return post(
          "bad-utf8",
          providersPath,
          variant,
          Buffer.concat([Buffer.from('{"provider_id":"'), bytes, Buffer.from('","name":"x"}')]),
        );
      case "body-key":
        return post(
          "bad-utf8",
          deploymentsPath,
          variant,
          Buffer.concat([Buffer.from('{"'), bytes, Buffer.from(`":1,"name":"fz_${i}"}`)]),
        );
      case "query-raw":
        return {
          category: "bad-utf8",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: Buffer.concat([Buffer.from(`${deploymentsPath}?name_contains=`), bytes]),
        };
      case "query-encoded":
        return {
          category: "bad-utf8",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: `${deploymentsPath}?${pick(rng, ["name_contains", "status", "deployment_ids", "limit", "image_version", "tag_value_ids"])}=${[...bytes].map((b) => `%${b.toString(16).toUpperCase()}`).join("")}`,
        };
      case "path-raw":
        return {
          category: "bad-utf8",
          operation: "path",
          variant,
          method: "GET",
          target: Buffer.concat([Buffer.from("/v1/integrations/codehost/"), bytes, Buffer.from("/repos")]),
        };
      case "path-encoded":
        return {
          category: "bad-utf8",
          operation: "path",
          variant,
          method: "GET",
          target: `/v1/integrations/${pick(rng, ["codehost", "forge/codehost"])}/${[...bytes].map((b) => `%${b.toString(16)}`).join("")}/repos`,
        };
      case "tenant-header":
        return {
          category: "bad-utf8",
          operation: `GET ${deploymentsPath}`,
          variant,
          method: "GET",
          target: deploymentsPath,
          headers: [["x-tenant-id", Buffer.concat([Buffer.from(ctx.acme.productionTenantId.slice(0, 9)), bytes])]],
        };
      default:
        return {
          category: "bad-utf8",
          operation: `GET ${providersPath}`,
          variant,
          method: "GET",
          target: providersPath,
          auth: false,
          headers: [["x-api-key", Buffer.concat([Buffer.from(ctx.acme.apiKey.slice(0, 8)), bytes])]],
        };
    }
  },
  // Bodies that are not JSON, declared as JSON: JSONTestSuite's must-reject texts, and random bytes.
  (rng, _ctx, i) => {
    const bytes =
      rng() < 0.15
        ? Buffer.from(Array.from({ length: between(rng, 1, 400) }, () => between(rng, 0, 255)))
        : Buffer.from(pick(rng, rejectedTexts));
    const path = pick(rng, [deploymentsPath, deploymentsPath, providersPath]);
    return post("non-json", path, `${JSON.stringify(bytes.subarray(0, 12).toString("latin1"))} #${i}`, bytes);
  },
  // Wrong or odd content types; the body is valid JSON, so only the content type can refuse it.
  (rng, _ctx, i) => {
    const types: readonly (string | undefined)[] = [
      undefined,
      "text/plain",
      "text/html",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=xyz",
      "application/xml",
      "application/octet-stream",
      "image/png",
      "json",
      "application/jsonx",
      "application/json-seq",
      "*/*",
      "",
      "text/json;;;",
    ];
    const type = pick(rng, types);
    const path = rng() < 0.7 ? deploymentsPath : providersPath;
    const body = path === deploymentsPath ? json(validDeployment(`fz-ct-${i}`)) : json(validProvider(`fz-ct-${i}`));
    return post(
      "content-type",
      path,
      type === undefined ? "(none)" : type,
      body,
      type === undefined ? [] : [["content-type", type]],
    );
  },
  // Header tricks on reads (no data at risk) and on creates with a body that is invalid anyway.
  (rng, ctx, i) => {
    const variant = pick(rng, [
      "duplicate-key-same",
      "duplicate-key-valid-invalid",
      "duplicate-key-invalid-valid",
      "duplicate-key-cross-org",
      "duplicate-tenant",
      "tenant-not-uuid",
      "tenant-empty",
      "tenant-foreign",
      "tenant-random",
      "tenant-sql",
      "tenant-long",
      "key-missing",
      "key-empty",
      "key-wrong",
      "key-long",
      "key-sql",
      "huge-header",
      "many-headers",
      "te-and-cl",
      "double-cl",
      "no-host",
      "obs-fold",
      "chunked-invalid-body",
      "accept-xml",
      "duplicate-content-type",
    ] as const);
    const onCreate = rng() < 0.4;
    const target = onCreate
      ? deploymentsPath
      : pick(rng, [deploymentsPath, providersPath, `/v1/integrations/codehost/${ctx.acme.plainIntegrationId}/repos`]);
    const method = onCreate ? "POST" : "GET";
    // Invalid on purpose (underscore in the name): whatever the headers do, the create must not succeed.
    const body = onCreate ? json(validDeployment(`fz_hdr_${i}`)) : undefined;
    const base: Draft = {
      category: "header-tricks",
      operation: `${method} ${target}`,
      variant,
      method,
      target,
      headers: onCreate ? [["content-type", "application/json"]] : [],
      ...(body ? { body } : {}),
    };
    const headers = base.headers!;
    switch (variant) {
      case "duplicate-key-same":
        return {
          ...base,
          auth: false,
          headers: [...headers, ["x-api-key", ctx.acme.apiKey], ["x-api-key", ctx.acme.apiKey]],
        };
      case "duplicate-key-valid-invalid":
        return {
          ...base,
          auth: false,
          headers: [...headers, ["x-api-key", ctx.acme.apiKey], ["x-api-key", "dk_nope"]],
        };
      case "duplicate-key-invalid-valid":
        return {
          ...base,
          auth: false,
          headers: [...headers, ["X-API-KEY", "dk_nope"], ["x-api-key", ctx.acme.apiKey]],
        };
      case "duplicate-key-cross-org":
        return {
          ...base,
          auth: false,
          headers: [...headers, ["x-api-key", ctx.globex.apiKey], ["x-api-key", ctx.acme.apiKey]],
        };
      case "duplicate-tenant":
        return {
          ...base,
          headers: [
            ...headers,
            ["x-tenant-id", ctx.acme.productionTenantId],
            ["x-tenant-id", ctx.acme.stagingTenantId],
          ],
        };
      case "tenant-not-uuid":
        return {
          ...base,
          headers: [
            ...headers,
            [
              "x-tenant-id",
              pick(rng, [
                "acme-production",
                "1234",
                ctx.acme.productionTenantId.replaceAll("-", ""),
                `{${ctx.acme.productionTenantId}}`,
                `${ctx.acme.productionTenantId.slice(0, -1)}g`,
                "../../etc/passwd",
              ]),
            ],
          ],
        };
      case "tenant-empty":
        return { ...base, headers: [...headers, ["x-tenant-id", ""]] };
      case "tenant-foreign":
        return { ...base, headers: [...headers, ["x-tenant-id", ctx.globex.productionTenantId]] };
      case "tenant-random":
        return { ...base, headers: [...headers, ["x-tenant-id", "3b241101-e2bb-4255-8caf-4136c566a962"]] };
      case "tenant-sql":
        return { ...base, headers: [...headers, ["x-tenant-id", "' OR '1'='1"]] };
      case "tenant-long":
        return { ...base, headers: [...headers, ["x-tenant-id", "a".repeat(between(rng, 100, 8_000))]] };
      case "key-missing":
        return { ...base, auth: false };
      case "key-empty":
        return { ...base, auth: false, headers: [...headers, ["x-api-key", ""]] };
      case "key-wrong":
        return {
          ...base,
          auth: false,
          headers: [
            ...headers,
            [
              "x-api-key",
              pick(rng, [
                `${ctx.acme.apiKey.slice(0, -1)}e`,
                ctx.acme.apiKey.toUpperCase(),
                `Bearer ${ctx.acme.apiKey}`,
                "null",
                "undefined",
                "*",
              ]),
            ],
          ],
        };
      case "key-long":
        return { ...base, auth: false, headers: [...headers, ["x-api-key", "k".repeat(between(rng, 1_000, 12_000))]] };
      case "key-sql":
        return { ...base, auth: false, headers: [...headers, ["x-api-key", "' OR 1=1 --"]] };
      case "huge-header":
        return { ...base, headers: [...headers, ["x-padding", "p".repeat(between(rng, 17_000, 80_000))]] };
      case "many-headers":
        return {
          ...base,
          headers: [
            ...headers,
            ...Array.from(
              { length: between(rng, 120, 400) },
              (_, k) => [`x-h${k}`, "v".repeat(100)] as [string, string],
            ),
          ],
        };
      case "te-and-cl":
        return onCreate
          ? {
              ...base,
              autoLength: false,
              headers: [...headers, ["transfer-encoding", "chunked"], ["content-length", "4"]],
              body: Buffer.from(`${body!.length.toString(16)}\r\n${body!.toString()}\r\n0\r\n\r\n`),
            }
          : {
              ...base,
              headers: [...headers, ["transfer-encoding", "chunked"], ["content-length", "0"]],
              autoLength: false,
              body: Buffer.from("0\r\n\r\n"),
            };
      case "double-cl":
        return onCreate
          ? {
              ...base,
              autoLength: false,
              headers: [
                ...headers,
                ["content-length", String(body!.length)],
                ["content-length", String(body!.length + 1)],
              ],
            }
          : { ...base, headers: [...headers, ["content-length", "0"], ["content-length", "5"]], autoLength: false };
      case "no-host":
        return { ...base, host: false };
      case "obs-fold":
        return { ...base, headers: [...headers, ["x-folded", "first\r\n second"]] };
      case "chunked-invalid-body":
        return onCreate
          ? {
              ...base,
              autoLength: false,
              headers: [...headers, ["transfer-encoding", "chunked"]],
              body: Buffer.from(`${body!.length.toString(16)}\r\n${body!.toString()}\r\n0\r\n\r\n`),
            }
          : {
              ...base,
              autoLength: false,
              headers: [...headers, ["transfer-encoding", "chunked"]],
              body: Buffer.from("5\r\nhello\r\n0\r\n\r\n"),
            };
      case "accept-xml":
        return {
          ...base,
          headers: [...headers, ["accept", pick(rng, ["application/xml", "text/html", "image/png", "*/*;q=0", ""])]],
        };
      default:
        return onCreate
          ? {
              ...base,
              headers: [
                ["content-type", "application/json"],
                ["content-type", "text/plain"],
              ],
            }
          : {
              ...base,
              headers: [
                ["content-type", "application/json"],
                ["content-type", "application/json"],
              ],
            };
    }
  },
  // Path traversal and odd request targets.
  (rng, ctx) => {
    const targets = [
      "/v2/../v2/deployments",
      "/v2/deployments/../auth/providers",
      "/v2/deployments/..%2f..%2fetc%2fpasswd",
      "/v1/integrations/codehost/..%2F..%2F..%2Fetc%2Fpasswd/repos",
      "/v1/integrations/codehost/%2e%2e/repos",
      "/v1/integrations/codehost/../../../../etc/passwd",
      "/v1/integrations/codehost/%2e%2e%2f%2e%2e%2fv2%2fdeployments/repos",
      `/v1/integrations/codehost/${ctx.acme.plainIntegrationId}/repos/../../../../v2/deployments`,
      `/v1/integrations/codehost/${ctx.acme.plainIntegrationId}%00/repos`,
      `/v1/integrations/codehost/${ctx.acme.plainIntegrationId}/repos%00`,
      "/v2/deployments%00",
      "/v2/deployments;jsessionid=1",
      "//v2//deployments",
      "/./v2/./deployments",
      "/v2/deployments/%2e%2e",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/..\\..\\windows\\win.ini",
      "/v3/deployments",
      "/v2/deployment",
      "/v2/deployments/123",
      "/v2/auth",
      "/v2/auth/providers/../../../etc/shadow",
      "/admin",
      "/.env",
      "/.git/config",
      "/server/main.ts",
      "/node_modules/koa/package.json",
      "/healthz/../v2/deployments",
      "/v2/deployments?limit=20#fragment",
      "/?",
      "/%",
      "/%zz",
      "/v2/deployments%",
      "*",
      "http://evil.example/v2/deployments",
      "v2/deployments",
      `/v1/integrations/forge/codehost/${ctx.acme.managedIntegrationId}/repos/..%252f..%252f`,
    ];
    const target = pick(rng, targets);
    return {
      category: "path",
      operation: "path",
      variant: target,
      method: pick(rng, ["GET", "GET", "POST", "DELETE"]),
      target,
      ...(rng() < 0.5 ? {} : { body: json({ name: "fz_path" }), headers: [["content-type", "application/json"]] }),
    };
  },
  // Methods the contract does not define, and unknown or malformed ones.
  (rng, ctx) => {
    const path = pick(rng, [
      deploymentsPath,
      providersPath,
      `/v1/integrations/codehost/${ctx.acme.plainIntegrationId}/repos`,
      `/v1/integrations/forge/codehost/${ctx.acme.managedIntegrationId}/repos`,
      "/nowhere",
    ]);
    const method = pick(rng, [
      "PUT",
      "DELETE",
      "PATCH",
      "POST",
      "TRACE",
      "PROPFIND",
      "MKCOL",
      "LOCK",
      "PURGE",
      "SEARCH",
      "FOO",
      "get",
      "G ET",
      "GET\tX",
      "HEAD",
      "OPTIONS",
      "CONNECT",
      "PRI",
    ]);
    const isRepos = path.includes("/repos");
    // POST is only "bad" on the repository paths; on the others send an invalid body so nothing is created.
    const body =
      method === "POST" && !isRepos
        ? json({ name: "fz_method" })
        : rng() < 0.3
          ? json({ name: "fz_method" })
          : undefined;
    return {
      category: "method",
      operation: path,
      variant: method,
      method,
      target: method === "CONNECT" ? "127.0.0.1:443" : path,
      ...(body ? { body, headers: [["content-type", "application/json"]] } : {}),
    };
  },
  // Query-string abuse of the list operation.
  (rng, ctx) => {
    // the hostile text of a value: a string of the Big List of Naughty Strings, percent-encoded (D-495)
    const naughty = encodeURIComponent(pick(rng, naughtyStrings));
    const params = [
      [
        "limit",
        [
          "0",
          "101",
          "-1",
          "abc",
          "1.5",
          "1e2",
          "",
          " 20",
          "20 ",
          "0x10",
          "99999999999999999999",
          "NaN",
          "Infinity",
          "2,3",
          "%20",
        ],
      ],
      ["offset", ["-1", "abc", "1.5", "1e400", "9007199254740993", "", "-0", "0x10", "NaN", "[]"]],
      ["status", ["BOGUS", "ready", "READY,,", ",", "READY,BOGUS", "%00", naughty]],
      ["deployment_ids", ["not-a-uuid", ",", `${ctx.acme.productionTenantId},x`, "%00", naughty]],
      ["remote_reconciled", ["maybe", "2", "yes", "TRUE ", "", "null"]],
      ["deployment_type", ["enterprise", "DEV", "", "dev,prod", "null"]],
      ["tag_value_ids", ["nope", ",,,", "'"]],
      ["limit&limit", ["1&limit=2"]],
      ["offset&offset", ["1&offset=abc"]],
      ["status&status", ["READY&status=BOGUS"]],
      ["name_contains", ["%00", naughty]],
      ["unknown", ["x"]],
      ["limit[]", ["1"]],
      ["limit[a]", ["1"]],
      ["__proto__[limit]", ["1"]],
      ["constructor[prototype][x]", ["1"]],
    ] as const;
    const count = between(rng, 1, 3);
    const parts: string[] = [];
    const used: string[] = [];
    for (let k = 0; k < count; k++) {
      const [name, values] = pick(rng, params);
      const value = pick(rng, values);
      // Spaces are encoded so the request line stays well-formed and the query reaches the application.
      parts.push(`${name.split("&")[0]}=${value.replaceAll(" ", "%20")}`);
      used.push(name.split("&")[0]!);
    }
    return {
      category: "query",
      operation: `GET ${deploymentsPath}`,
      variant: used.join("+"),
      method: "GET",
      target: `${deploymentsPath}?${parts.join("&")}`,
    };
  },
  // Per-source rules and source availability (the server runs as cloud).
  (rng, ctx, i) => {
    const name = `fz-rule-${i}`;
    const variants: [string, Record<string, unknown>][] = [
      [
        "external-container-in-cloud",
        {
          name,
          source: "external_container",
          source_config: {},
          source_revision_config: { image_uri: "registry.example/app:1.0" },
          secrets: [],
        },
      ],
      [
        "codehost-no-integration",
        {
          name,
          source: "codehost",
          source_config: { repo_url: "https://codehost.example/acme/support-agent" },
          source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "codehost-no-repo-ref",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.acme.plainIntegrationId,
            repo_url: "https://codehost.example/acme/support-agent",
          },
          source_revision_config: { graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "codehost-no-graph-config",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.acme.plainIntegrationId,
            repo_url: "https://codehost.example/acme/support-agent",
          },
          source_revision_config: { repo_ref: "main" },
          secrets: [],
        },
      ],
      [
        "codehost-foreign-integration",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.globex.plainIntegrationId,
            repo_url: "https://codehost.example/globex/ops-agent",
          },
          source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "codehost-unknown-repo",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.acme.plainIntegrationId,
            repo_url: "https://codehost.example/acme/nope",
          },
          source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "codehost-unknown-branch",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.acme.plainIntegrationId,
            repo_url: "https://codehost.example/acme/support-agent",
          },
          source_revision_config: { repo_ref: "no-such-branch-fz", graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "codehost-build-on-tag",
        {
          name,
          source: "codehost",
          source_config: {
            integration_id: ctx.acme.plainIntegrationId,
            repo_url: "https://codehost.example/acme/support-agent",
            build_on_push: true,
          },
          source_revision_config: { repo_ref: "refs/tags/v1.0.0", graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "internal-source-no-tarball",
        {
          name,
          source: "internal_source",
          source_config: {},
          source_revision_config: { graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "internal-container-no-image",
        { name, source: "internal_container", source_config: {}, source_revision_config: {}, secrets: [] },
      ],
      [
        "template-with-graph-config",
        {
          name,
          source: "internal_template",
          source_config: {},
          source_revision_config: { graph_config_path: "graph.json" },
          secrets: [],
        },
      ],
      [
        "template-with-resource-spec",
        {
          name,
          source: "internal_template",
          source_config: { resource_spec: { min_scale: 1 } },
          source_revision_config: {},
          secrets: [],
        },
      ],
      [
        "template-with-image",
        {
          name,
          source: "internal_template",
          source_config: {},
          source_revision_config: { image_uri: "registry.example/app:1.0" },
          secrets: [],
        },
      ],
      [
        "template-with-listener",
        {
          name,
          source: "internal_template",
          source_config: { listener_id: "3b241101-e2bb-4255-8caf-4136c566a962" },
          source_revision_config: {},
          secrets: [],
        },
      ],
      [
        "template-with-secret-references",
        {
          name,
          source: "internal_template",
          source_config: {},
          source_revision_config: {},
          secrets: [],
          secret_references: [{ name: "a", secret_name: "b", secret_key: "c" }],
        },
      ],
      ["duplicate-name", validDeployment(ctx.existingDeploymentName)],
      ["name-underscore", validDeployment(`fz_rule_${i}`)],
      ["name-digit-first", validDeployment(`1fz-${i}`)],
      ["name-64", validDeployment(`f${"z".repeat(63)}`)],
      ["name-empty", validDeployment("")],
      ["name-space", validDeployment(`fz ${i}`)],
      ["name-unicode", validDeployment(`fzé-${i}`)],
      ["name-nul", validDeployment(`fz\u0000${i}`)],
      ["name-dot-dot", validDeployment("../etc")],
      ["name-proto", { ...validDeployment("__proto__") }],
      ["secret-empty-name", { ...validDeployment(name), secrets: [{ name: "", value: "v" }] }],
      ["secret-missing-value", { ...validDeployment(name), secrets: [{ name: "A" }] }],
      [
        "secret-101",
        { ...validDeployment(name), secrets: Array.from({ length: 101 }, (_, k) => ({ name: `S${k}`, value: "v" })) },
      ],
    ];
    const [variant, body] = pick(rng, variants);
    return post("source-rule", deploymentsPath, variant, json(body));
  },
  // OAuth provider rules and duplicates.
  (rng, ctx, i) => {
    const id = `fz-prov-${i}`;
    const variants: [string, Record<string, unknown>][] = [
      ["http-non-loopback", { ...validProvider(id), auth_url: "http://auth.example/authorize" }],
      ["javascript-url", { ...validProvider(id), token_url: "javascript:alert(1)" }],
      ["relative-url", { ...validProvider(id), auth_url: "/authorize" }],
      ["not-a-url", { ...validProvider(id), token_url: "not a url" }],
      ["file-url", { ...validProvider(id), auth_url: "file:///etc/passwd" }],
      ["data-url", { ...validProvider(id), auth_url: "data:text/html,<script>alert(1)</script>" }],
      ["userinfo-url", { ...validProvider(id), auth_url: "https://user:pass@" }],
      ["url-2049", { ...validProvider(id), auth_url: `https://auth.example/${"a".repeat(2_030)}` }],
      ["challenge-S512", { ...validProvider(id), code_challenge_method: "S512" }],
      ["challenge-lower", { ...validProvider(id), code_challenge_method: "s256" }],
      ["provider-type-unknown", { ...validProvider(id), provider_type: "google" }],
      ["auth-method-unknown", { ...validProvider(id), token_endpoint_auth_method: "private_key_jwt" }],
      ["empty-provider-id", { ...validProvider(""), name: "x" }],
      ["long-provider-id", validProvider("p".repeat(256))],
      ["duplicate-provider-id", validProvider(ctx.existingProviderId)],
      ["uses-pkce-string", { ...validProvider(id), uses_pkce: "false" }],
      ["client-secret-too-long", { ...validProvider(id), client_secret: "s".repeat(4_097) }],
    ];
    const [variant, body] = pick(rng, variants);
    return post("provider-rule", providersPath, variant, json(body));
  },
  // Integration ids: malformed, foreign, unknown, on both repository paths.
  (rng, ctx) => {
    const prefix = pick(rng, ["/v1/integrations/codehost/", "/v1/integrations/forge/codehost/"]);
    const id = pick(rng, [
      "not-a-uuid",
      "0",
      "-1",
      "3b241101-e2bb-4255-8caf-4136c566a962",
      ctx.globex.plainIntegrationId,
      ctx.acme.plainIntegrationId.toUpperCase(),
      `${ctx.acme.plainIntegrationId}x`,
      "%7B%7D",
      "null",
      "00000000-0000-0000-0000-000000000000",
      "' OR '1'='1",
      ctx.acme.managedIntegrationId,
      ctx.acme.plainIntegrationId,
    ]);
    const key = rng() < 0.2 ? ctx.globex.apiKey : ctx.acme.apiKey;
    return {
      category: "integration",
      operation: `GET ${prefix}{id}/repos`,
      variant: id,
      method: "GET",
      target: `${prefix}${encodeURI(id)}/repos`,
      auth: false,
      headers: [["x-api-key", key]],
    };
  },
  // Bodies that parsing would change (D-281), in free-form objects of resource_spec and in a secret value: each
  // would be stored other than sent, so each is refused (422 naming the place, 400 for bytes that are not UTF-8).
  (rng, _ctx, i) => {
    const variant = pick(rng, ["deep", "number", "utf8-free-form", "utf8-secret"]);
    const withSecurityContext = (value: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `{"name":"fz-fidelity-${i}","source":"external_container","source_config":{"custom_url":"https://fz.example","resource_spec":{"sidecars":[{"name":"s","image":"i","securityContext":`,
        ),
        value,
        Buffer.from('}]}},"source_revision_config":{"image_uri":"registry.example/fz:1"},"secrets":[]}'),
      ]);
    switch (variant) {
      case "deep": {
        // 33 levels and more under securityContext (itself level 6): beyond the bound of 32.
        const depth = pick(rng, [33, 1_700, 20_000]);
        return post(
          "fidelity",
          deploymentsPath,
          `deep-${depth}`,
          withSecurityContext(Buffer.from(nest(depth, "x", rng() < 0.5))),
        );
      }
      case "number": {
        const number = pick(rng, ["1e400", "-1e309", "9007199254740993", "1e-400", "123456789012345678901234567890"]);
        return post(
          "fidelity",
          deploymentsPath,
          `number-${number}`,
          withSecurityContext(Buffer.from(`{"runAsUser":${number}}`)),
        );
      }
      case "utf8-free-form":
        return post(
          "fidelity",
          deploymentsPath,
          variant,
          withSecurityContext(Buffer.concat([Buffer.from('{"k":"'), pick(rng, badUtf8), Buffer.from('"}')])),
        );
      default:
        // A valid internal template but for the secret value's bytes: before D-281 stored with U+FFFD, masked in answers.
        return post(
          "fidelity",
          deploymentsPath,
          variant,
          Buffer.concat([
            Buffer.from(
              `{"name":"fz-fidelity-${i}","source":"internal_template","source_config":{},"source_revision_config":{},"secrets":[{"name":"S","value":"v`,
            ),
            pick(rng, badUtf8),
            Buffer.from('"}]}'),
          ]),
        );
    }
  },
  // Protocol odds of D-310 and D-412, each with the status it must get: two Host lines, a Host list and an HTTP/0.9
  // request line are 400 before authentication; a query name the operation does not declare is 422, never
  // ignored, the names every JavaScript object inherits (`__proto__`, `constructor`) included.
  (rng) => {
    const variant = pick(rng, ["host-twice", "host-twice-1.0", "host-list", "http-0.9", "query-name"] as const);
    const target = pick(rng, [deploymentsPath, providersPath]);
    const base = { category: "protocol", operation: `GET ${target}`, method: "GET", target };
    switch (variant) {
      case "host-twice":
        return { ...base, variant, headers: [["host", pick(rng, ["127.0.0.1", "evil.example"])]], expectStatus: 400 };
      case "host-twice-1.0":
        return { ...base, variant, version: "HTTP/1.0", headers: [["Host", "evil.example"]], expectStatus: 400 };
      case "host-list":
        return {
          ...base,
          variant,
          host: false,
          headers: [["Host", pick(rng, ["a, b", "a,b", "127.0.0.1, evil.example"])]],
          expectStatus: 400,
        };
      case "http-0.9":
        return { ...base, variant, version: "", host: false, auth: rng() < 0.5, expectStatus: 400 };
      default: {
        const name = pick(rng, [
          "status[]",
          "limit[]",
          "status[0]",
          "name_contains[]",
          "statuss",
          "Limit",
          "tenant",
          "__proto__",
          "constructor",
          "hasOwnProperty",
        ]);
        const value = name.startsWith("limit") || name === "Limit" ? "1" : "READY";
        return {
          ...base,
          operation: `GET ${deploymentsPath}`,
          variant: `query-${name}`,
          target: `${deploymentsPath}?${encodeURIComponent(name).replaceAll("%5B", "[").replaceAll("%5D", "]")}=${value}`,
          expectStatus: 422,
        };
      }
    }
  },
];

/** The number of distinct makers (categories rotate through them in order). */
export const makerCount = makers.length;

/**
 * Yields `count` cases for `seed`. Case i comes from maker i mod makerCount (so every category appears
 * evenly) with variants drawn from a PRNG seeded with `seed`.
 */
export function* fuzzCases(seed: number, count: number, ctx: FuzzContext): Generator<FuzzCase> {
  const rng = seededRandom(seed);
  for (let index = 0; index < count; index++) {
    const draft = makers[index % makers.length]!(rng, ctx, index);
    const headers: [string, Bytes][] = [];
    if (draft.auth !== false) headers.push(["x-api-key", ctx.acme.apiKey]);
    headers.push(...(draft.headers ?? []));
    yield {
      index,
      category: draft.category,
      operation: draft.operation,
      variant: draft.variant,
      method: draft.method,
      target: draft.target,
      headers,
      ...(draft.body ? { body: draft.body } : {}),
      autoLength: draft.autoLength ?? true,
      host: draft.host ?? true,
      version: draft.version ?? "HTTP/1.1",
      ...(draft.expectStatus === undefined ? {} : { expectStatus: draft.expectStatus }),
    };
  }
}

/** The exact bytes of a case: request line, headers (Host, Content-Length and Connection: close added), body. */
export function renderCase(fuzzCase: FuzzCase, hostHeader: string): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`${fuzzCase.method} `),
    Buffer.from(fuzzCase.target),
    Buffer.from(fuzzCase.version === "" ? "\r\n" : ` ${fuzzCase.version}\r\n`),
  ];
  const line = (name: string, value: Bytes) =>
    parts.push(Buffer.from(`${name}: `), Buffer.from(value), Buffer.from("\r\n"));
  if (fuzzCase.host) line("Host", hostHeader);
  for (const [name, value] of fuzzCase.headers) line(name, value);
  if (fuzzCase.body && fuzzCase.autoLength) line("Content-Length", String(fuzzCase.body.length));
  line("Connection", "close");
  parts.push(Buffer.from("\r\n"));
  if (fuzzCase.body) parts.push(fuzzCase.body);
  return Buffer.concat(parts);
}
