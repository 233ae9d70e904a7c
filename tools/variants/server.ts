/**
 * An implementation of the interface written from the interface spec alone, as an outside team would (D-230):
 * in-memory state, the six operations, and a knob for every choice the spec leaves open (knobs.ts).
 * It shares no code with server/ and is judged by the suite like any other target.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listen } from "../../common/listen.js";
import type { Knobs } from "./knobs.js";
import { breach, deploymentBody, isPlainObject, providerBody } from "./shapes.js";

/** What the implementation is seeded with: API keys (each of one organization, reaching some tenants) and code-host integrations. */
export interface Seed {
  keys: { key: string; organizationId: string; defaultTenant: string; tenants: string[] }[];
  integrations: {
    id: string;
    tenantId: string;
    managed: boolean;
    repositories: { id: number; name: string; owner: string; url: string; default_branch: string }[];
  }[];
}

type Json = Record<string, unknown>;
type Kind =
  | "malformed"
  | "schema"
  | "rule"
  | "media"
  | "unauthenticated"
  | "forbidden"
  | "not-found"
  | "method"
  | "conflict";

/** An answer the handler ends with. */
class Refusal extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
    readonly allow?: string,
  ) {
    super(message);
  }
}

const states = ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"];
const deploymentTypes = ["dev_free", "dev", "prod"];
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const configFields = {
  source_config: [
    "integration_id",
    "repo_url",
    "build_on_push",
    "custom_url",
    "resource_spec",
    "listener_id",
    "listener_config",
    "install_command",
    "build_command",
  ],
  source_revision_config: ["repo_ref", "graph_config_path", "image_uri", "source_tarball_path"],
};
/** A per-source table of this implementation's own (the spec leaves it open): the fields each source requires, and the one field it refuses. */
const ownSourceTable: Record<string, { requires: string[]; refuses: string }> = {
  codehost: { requires: ["integration_id", "repo_url", "repo_ref"], refuses: "image_uri" },
  external_container: { requires: ["image_uri"], refuses: "repo_url" },
  internal_container: { requires: ["image_uri"], refuses: "repo_url" },
  internal_source: { requires: ["source_tarball_path"], refuses: "image_uri" },
  internal_template: { requires: [], refuses: "image_uri" },
};
const cloudSources = ["codehost", "internal_container", "internal_source", "internal_template"];

/** A stored deployment: the record as created, its order of creation, and when it was created. */
interface Stored {
  record: Json;
  seq: number;
  createdMs: number;
  /** The revision a deployment gets when it turns READY, for `latestRevision: "null-until-ready"`. */
  revision: string;
}

/** Starts the implementation on 127.0.0.1 at a free port. */
export async function startVariantServer(knobs: Knobs, seed: Seed): Promise<{ url: string; close(): Promise<void> }> {
  const providers = new Map<string, { record: Json; seq: number }[]>();
  const deployments = new Map<string, Stored[]>();
  let seq = 0;

  /** A date-time in the knob's form; both are RFC 3339. */
  const stamp = (ms: number): string =>
    knobs.timestamps === "z" ? new Date(ms).toISOString() : `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;

  const statusOf = (kind: Kind): number =>
    ({
      malformed: 400,
      schema: knobs.clientErrorStatus === "400" ? 400 : 422,
      rule: 400,
      media: knobs.mediaType === "415" ? 415 : knobs.clientErrorStatus === "400" ? 400 : 422,
      unauthenticated: 401,
      forbidden: 403,
      "not-found": 404,
      method: 405,
      conflict: 409,
    })[kind];

  function fail(res: ServerResponse, refusal: Refusal): void {
    const status = statusOf(refusal.kind);
    const headers: Record<string, string> = refusal.allow ? { Allow: refusal.allow } : {};
    if (knobs.errorBody === "text") {
      res.writeHead(status, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
      res.end(refusal.message);
    } else if (knobs.errorBody === "plain-json") {
      res.writeHead(status, {
        ...headers,
        "Content-Type": knobs.jsonType === "charset" ? "application/json; charset=utf-8" : "application/json",
      });
      res.end(JSON.stringify({ error: refusal.message }));
    } else {
      res.writeHead(status, { ...headers, "Content-Type": "application/problem+json" });
      res.end(
        JSON.stringify({ type: `urn:spec-only:${refusal.kind}`, title: refusal.kind, status, detail: refusal.message }),
      );
    }
  }

  function answer(res: ServerResponse, status: number, body: unknown): void {
    const type = knobs.successType === "vendor" ? "application/vnd.deployments.v2+json" : "application/json";
    res.writeHead(status, {
      "Content-Type": knobs.jsonType === "charset" ? `${type}; charset=utf-8` : type,
    });
    res.end(JSON.stringify(body));
  }

  /** The caller's organization and tenant, from the key and (when the knob allows) X-Tenant-Id. */
  function caller(req: IncomingMessage): { organizationId: string; tenantId: string } {
    const header =
      knobs.auth === "bearer" ? /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] : req.headers["x-api-key"];
    const key = seed.keys.find((k) => k.key === header);
    if (!key) throw new Refusal("unauthenticated", "a valid API key is required");
    const asked = req.headers["x-tenant-id"];
    if (!knobs.tenantHeader || typeof asked !== "string")
      return { organizationId: key.organizationId, tenantId: key.defaultTenant };
    if (!uuidPattern.test(asked)) throw new Refusal("schema", "X-Tenant-Id must be a UUID");
    if (!key.tenants.includes(asked))
      throw new Refusal(knobs.otherTenant === 404 ? "not-found" : "forbidden", "this key does not reach that tenant");
    return { organizationId: key.organizationId, tenantId: asked };
  }

  /** The JSON object of a request body, refusing other media types and malformed JSON. */
  function jsonBody(req: IncomingMessage, text: string): Json {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") throw new Refusal("media", "the body must be application/json");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Refusal("malformed", "the body is not well-formed JSON");
    }
    if (!isPlainObject(parsed)) throw new Refusal("schema", "the body must be a JSON object");
    return parsed;
  }

  function validated(body: Json, shape: typeof providerBody): void {
    const found = breach(body, shape, "body", knobs.unknownFields === "refuse");
    if (found) throw new Refusal("schema", found);
  }

  function createProvider(req: IncomingMessage, text: string, organizationId: string): [number, Json] {
    const body = jsonBody(req, text);
    validated(body, providerBody);
    const list = providers.get(organizationId) ?? [];
    if (knobs.duplicates === "409" && list.some((p) => p.record.provider_id === body.provider_id))
      throw new Refusal("conflict", `provider_id ${String(body.provider_id)} exists`);
    const now = stamp(Date.now());
    const opaque = knobs.providerIds === "opaque";
    const record: Json = {
      id: opaque ? `prov_${seq}` : randomUUID(),
      organization_id: opaque ? `org_${organizationId.slice(0, 8)}` : organizationId,
      provider_id: body.provider_id,
      name: body.name,
      client_id: body.client_id,
      auth_url: body.auth_url,
      token_url: body.token_url,
      uses_pkce: body.uses_pkce ?? false,
      code_challenge_method: body.code_challenge_method ?? "S256",
      created_at: now,
      updated_at: now,
      provider_type: body.provider_type ?? null,
      mcp_server_url: null,
      token_endpoint_auth_method: body.token_endpoint_auth_method ?? "client_secret_post",
      is_dynamic_client: false,
    };
    if (knobs.optionalFields === "absent") {
      delete record.mcp_server_url;
      delete record.is_dynamic_client;
      if (record.provider_type === null) delete record.provider_type;
      if (record.token_endpoint_auth_method === "client_secret_post") delete record.token_endpoint_auth_method;
    }
    list.push({ record, seq: seq++ });
    providers.set(organizationId, list);
    return [knobs.providerCreateStatus, record];
  }

  function listProviders(organizationId: string): Json[] {
    const list = [...(providers.get(organizationId) ?? [])];
    list.sort((a, b) => (knobs.providerOrder === "oldest" ? a.seq - b.seq : b.seq - a.seq));
    return list.map((p) => p.record);
  }

  function listRepositories(id: string, managed: boolean, who: { tenantId: string }): Json[] {
    if (!uuidPattern.test(id)) throw new Refusal("schema", "integration_id must be a UUID");
    const integration = seed.integrations.find((i) => i.id === id && i.managed === managed);
    if (!integration) throw new Refusal("not-found", "no such integration");
    if (integration.tenantId !== who.tenantId)
      throw new Refusal(knobs.otherTenant === 403 ? "forbidden" : "not-found", "no such integration in this tenant");
    const records = integration.repositories.map((r) => ({ host_integration_id: integration.id, ...r }));
    return records.sort((a, b) =>
      knobs.repositoryOrder === "id-desc"
        ? b.id - a.id
        : a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name),
    );
  }

  function imageVersion(source: string, revision: Json): string | null {
    const uri = revision.image_uri;
    if (knobs.imageVersion !== "tag" || typeof uri !== "string" || !source.endsWith("_container")) return null;
    const withoutDigest = uri.split("@")[0]!;
    const colon = withoutDigest.lastIndexOf(":");
    return colon > withoutDigest.lastIndexOf("/") ? withoutDigest.slice(colon + 1) : null;
  }

  function createDeployment(req: IncomingMessage, text: string, tenantId: string): [number, Json] {
    const body = jsonBody(req, text);
    validated(body, deploymentBody);
    const source = body.source as string;
    const available = knobs.hosting === "cloud" ? cloudSources.includes(source) : source === "external_container";
    if (!available) throw new Refusal("rule", `source ${source} is not available on a ${knobs.hosting} service`);
    if (knobs.sourceRules === "own") {
      const given = { ...(body.source_config as Json), ...(body.source_revision_config as Json) };
      const rule = ownSourceTable[source]!;
      const missing = rule.requires.find((f) => given[f] === undefined || given[f] === null);
      if (missing) throw new Refusal("rule", `source ${source} requires ${missing}`);
      if (given[rule.refuses] !== undefined && given[rule.refuses] !== null)
        throw new Refusal("rule", `source ${source} takes no ${rule.refuses}`);
    }
    const list = deployments.get(tenantId) ?? [];
    if (knobs.duplicates === "409" && list.some((d) => d.record.name === body.name))
      throw new Refusal("conflict", `a deployment named ${String(body.name)} exists`);
    const configs = Object.fromEntries(
      (["source_config", "source_revision_config"] as const).map((part) => {
        const sent = body[part] as Json;
        const kept = Object.fromEntries(configFields[part].filter((f) => f in sent).map((f) => [f, sent[f]]));
        const filled = knobs.configNulls
          ? Object.fromEntries(configFields[part].map((f) => [f, kept[f] ?? null]))
          : kept;
        return [part, part === "source_revision_config" ? { ...filled, repo_commit_sha: null } : filled];
      }),
    );
    const secrets = (body.secrets as Json[]).map((s) =>
      knobs.secrets === "masked" && typeof s.value === "string" ? { ...s, value: "********" } : s,
    );
    const now = Date.now();
    const record: Json = {
      name: body.name,
      source,
      ...configs,
      secrets,
      id: randomUUID(),
      tenant_id: tenantId,
      created_at: stamp(now),
      updated_at: stamp(now),
      status: knobs.initialStatus,
      latest_revision_id: knobs.latestRevision === "uuid" || knobs.initialStatus === "READY" ? randomUUID() : null,
      active_revision_id: null,
      secret_references: source === "external_container" ? (body.secret_references ?? null) : null,
      image_version: imageVersion(source, body.source_revision_config as Json),
    };
    if (knobs.initialStatus === "READY") record.active_revision_id = record.latest_revision_id;
    if (knobs.imageVersion === "absent") delete record.image_version;
    if (knobs.optionalFields === "absent" && record.secret_references === null) delete record.secret_references;
    list.push({ record, seq: seq++, createdMs: now, revision: randomUUID() });
    deployments.set(tenantId, list);
    return [knobs.deploymentCreateStatus, record];
  }

  /** A record as it reads now: AWAITING_DATABASE turns READY once `readyAfterMs` has passed. */
  function current(d: Stored): Json {
    const readyAt = d.createdMs + knobs.readyAfterMs;
    if (d.record.status !== "AWAITING_DATABASE" || Date.now() < readyAt) return d.record;
    const revision = d.record.latest_revision_id ?? d.revision;
    const late =
      knobs.lateFields === "on-ready"
        ? {
            image_version: d.record.image_version ?? `build-${d.seq}`,
            source_revision_config: {
              ...(d.record.source_revision_config as Json),
              repo_commit_sha: d.revision.replace(/-/g, "").slice(0, 40).padEnd(40, "0"),
            },
          }
        : {};
    return {
      ...d.record,
      ...late,
      status: "READY",
      latest_revision_id: revision,
      active_revision_id: revision,
      updated_at: stamp(readyAt),
    };
  }

  /** A comma-separated filter: its values, or a refusal (or a match of nothing) when one is malformed. */
  function commaList(value: string, name: string, valid: (v: string) => boolean): string[] | "nothing" {
    const values = value.split(",").map((v) => v.trim());
    if (values.every(valid)) return values;
    if (knobs.badFilterValue === "nothing") return "nothing";
    throw new Refusal("schema", `${name} holds a value that is not allowed`);
  }

  function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
    const raw = query.get(name);
    if (raw === null) return fallback;
    const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Refusal("schema", `${name} must be an integer from ${min} to ${max}`);
    return value;
  }

  function listDeployments(query: URLSearchParams, tenantId: string): Json {
    const limit = integerParam(query, "limit", 20, 1, 100);
    const offset = integerParam(query, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
    const given = (name: string) => (query.get(name) ? (query.get(name) as string) : undefined);
    const reconciled = given("remote_reconciled");
    if (reconciled !== undefined && reconciled !== "true" && reconciled !== "false")
      throw new Refusal("schema", "remote_reconciled must be true or false");
    const type = given("deployment_type");
    if (type !== undefined && !deploymentTypes.includes(type))
      throw new Refusal("schema", `deployment_type must be one of ${deploymentTypes.join(", ")}`);
    const status = given("status");
    if (status?.includes(",") && knobs.statusFilter === "single") throw new Refusal("schema", "status takes one state");
    const statuses = status === undefined ? undefined : commaList(status, "status", (s) => states.includes(s));
    const idsParam = given("deployment_ids");
    const ids = idsParam === undefined ? undefined : commaList(idsParam, "deployment_ids", (s) => uuidPattern.test(s));
    const tagsParam = given("tag_value_ids");
    const tags =
      tagsParam === undefined ? undefined : commaList(tagsParam, "tag_value_ids", (s) => uuidPattern.test(s));
    const nameContains = given("name_contains");
    const version = given("image_version");
    const fold = (s: string) => (knobs.nameContains === "insensitive" ? s.toLowerCase() : s);
    const matching = (deployments.get(tenantId) ?? [])
      .map((d) => ({ d, record: current(d) }))
      .filter(({ record }) => {
        const config = record.source_config as Json;
        if (nameContains !== undefined && !fold(record.name as string).includes(fold(nameContains))) return false;
        if (statuses !== undefined && (statuses === "nothing" || !statuses.includes(record.status as string)))
          return false;
        if (ids !== undefined && (ids === "nothing" || !ids.includes(record.id as string))) return false;
        if (tags !== undefined) return false; // the interface gives a deployment no tags
        if (version !== undefined && record.image_version !== version) return false;
        if (type !== undefined && type !== "dev") return false; // a deployment created here is of type dev
        const hasListener = config.listener_id !== undefined && config.listener_id !== null;
        if (reconciled !== undefined && hasListener !== (reconciled === "true")) return false;
        return true;
      });
    matching.sort((a, b) =>
      knobs.deploymentOrder === "oldest"
        ? a.d.seq - b.d.seq
        : knobs.deploymentOrder === "newest"
          ? b.d.seq - a.d.seq
          : (a.record.name as string).localeCompare(b.record.name as string) || a.d.seq - b.d.seq,
    );
    const page = matching.slice(offset, offset + limit).map((m) => m.record);
    const next =
      knobs.nextOffset === "stride"
        ? offset + limit
        : knobs.nextOffset === "total" && offset + page.length >= matching.length
          ? matching.length
          : offset + page.length;
    return { resources: page, offset: next };
  }

  /** Routes one request to its operation: the success status and body, or a Refusal thrown. */
  function route(req: IncomingMessage, text: string): [number, unknown] {
    const url = new URL(req.url ?? "/", "http://variant.invalid");
    const method = req.method ?? "GET";
    const who = caller(req);
    const repos = /^\/v1\/integrations\/codehost\/([^/]+)\/repos$/.exec(url.pathname);
    const managed = (
      knobs.managedPath === "own"
        ? /^\/v1\/managed-integrations\/([^/]+)\/repositories$/
        : /^\/v1\/integrations\/forge\/codehost\/([^/]+)\/repos$/
    ).exec(url.pathname);
    const allowed = (methods: string[]) => {
      if (methods.includes(method)) return;
      if (knobs.unknownMethod === 404) throw new Refusal("not-found", "no such route");
      throw new Refusal("method", `${method} is not served here`, methods.join(", "));
    };
    if (url.pathname === "/v2/auth/providers") {
      allowed(["GET", "POST"]);
      return method === "GET"
        ? [200, listProviders(who.organizationId)]
        : createProvider(req, text, who.organizationId);
    }
    if (url.pathname === "/v2/deployments") {
      allowed(["GET", "POST"]);
      return method === "GET"
        ? [200, listDeployments(url.searchParams, who.tenantId)]
        : createDeployment(req, text, who.tenantId);
    }
    const matched = repos ?? managed;
    if (matched) {
      allowed(["GET"]);
      return [200, listRepositories(decodeURIComponent(matched[1]!), matched === managed, who)];
    }
    throw new Refusal("not-found", "no such route");
  }

  /** Requests of the current second per key (the key header as sent), for the `rateLimit` knob. */
  const window = { second: 0, counts: new Map<string, number>() };
  /** Whether this request is over the key's requests a second; counts it. */
  function overLimit(req: IncomingMessage): boolean {
    if (knobs.rateLimit === 0) return false;
    const second = Math.floor(Date.now() / 1000);
    if (second !== window.second) {
      window.second = second;
      window.counts.clear();
    }
    const key = String(req.headers.authorization ?? req.headers["x-api-key"] ?? "");
    const count = (window.counts.get(key) ?? 0) + 1;
    window.counts.set(key, count);
    return count > knobs.rateLimit;
  }

  const server = createServer((req, res) => {
    if (overLimit(req)) {
      req.resume();
      const retryAfter = knobs.rateLimitAnswer === "retry-after" ? { "Retry-After": "1" } : {};
      res.writeHead(429, { ...retryAfter, "Content-Type": "application/problem+json" });
      res.end(JSON.stringify({ type: "urn:spec-only:rate-limited", title: "rate limited", status: 429 }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const [status, body] = route(req, Buffer.concat(chunks).toString("utf8"));
        answer(res, status, body);
      } catch (error) {
        if (error instanceof Refusal) fail(res, error);
        else {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end("internal error");
        }
      }
    });
  });
  const { url, close } = await listen(server, 0, "127.0.0.1");
  return { url, close };
}
