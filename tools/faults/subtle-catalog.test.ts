/** Each subtle fault changes what a client sees or what the server receives, against a small in-process upstream with the reference server's strictness. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { faults } from "./catalog.js";
import { type Fault, startFaultProxy } from "./proxy.js";
import { subtleFaults } from "./subtle-catalog.js";

type Json = Record<string, unknown>;

const key = demo.acme.apiKey;
const foreignTenant = "00000000-0000-4000-8000-0000000000cf";
const statuses = ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"];

/** The upstream's state: reset before each sequence, so two runs of a sequence see the same answers but for the fault. */
let stored: Json[] = [];
let providers: Json[] = [];
let counter = 0;

function reset(): void {
  counter = 0;
  providers = [{ id: "p0", provider_id: "p0", uses_pkce: true, code_challenge_method: "S256" }];
  stored = Array.from({ length: 120 }, (_, i) => {
    const status = i % 2 === 0 ? "AWAITING_DATABASE" : "READY";
    return {
      id: `d-${String(1000 - i)}`,
      name: `dep-${i}`,
      source: i === 1 ? "codehost" : "internal_template",
      status,
      image_version: i % 3 === 0 ? "1.2.3" : null,
      created_at: `2026-01-01T00:${String(59 - Math.floor(i / 2)).padStart(2, "0")}:00.000000Z`,
      updated_at: "2026-01-01T01:00:00.000000Z",
      latest_revision_id: `r-${i}`,
      active_revision_id: status === "READY" ? `r-${i}` : null,
      secrets: [{ name: "S", value: "********" }],
      source_config:
        i === 1
          ? { integration_id: demo.acme.plainIntegrationId, repo_url: "https://codehost.example/acme/triage-graph" }
          : i === 2
            ? { integration_id: demo.acme.managedIntegrationId }
            : {},
      source_revision_config: i === 1 ? { repo_ref: "trunk", repo_commit_sha: "a".repeat(40) } : {},
    };
  });
}

const problem = (status: number) => ({ status, body: { type: "urn:test", title: "t", status, detail: "d" } });

/** Answers like the reference server where the faults bend it: strict parameters, enums, content type, key first. */
function answer(req: IncomingMessage, body: string): { status: number; body: unknown } {
  const url = new URL(req.url ?? "/", "http://upstream.invalid");
  const q = url.searchParams;
  if (req.headers["x-api-key"] !== key) return problem(401);
  if (req.headers["x-tenant-id"] === foreignTenant) return problem(403);
  if (url.pathname === "/v2/deployments" && req.method === "GET") {
    for (const p of ["limit", "offset"]) if (q.has(p) && !/^\d+$/.test(q.get(p)!)) return problem(422);
    const limit = Number(q.get("limit") ?? 20);
    const offset = Number(q.get("offset") ?? 0);
    if (limit < 1 || limit > 100) return problem(422);
    const wanted = q.get("status")?.split(",");
    if (wanted?.some((s) => !statuses.includes(s))) return problem(422);
    if (q.has("deployment_type") && !["dev_free", "dev", "prod"].includes(q.get("deployment_type")!))
      return problem(422);
    const ids = q.get("deployment_ids")?.split(",");
    const needle = q.get("name_contains")?.toLowerCase();
    const all = stored.filter(
      (d) =>
        (!wanted || wanted.includes(String(d.status))) &&
        (!ids || ids.includes(String(d.id))) &&
        (needle === undefined || String(d.name).toLowerCase().includes(needle)) &&
        (!q.has("image_version") || d.image_version === q.get("image_version")),
    );
    const resources = all.slice(offset, offset + limit);
    return { status: 200, body: { resources, offset: offset + resources.length } };
  }
  if (url.pathname === "/v2/auth/providers" && req.method === "GET") return { status: 200, body: providers };
  const type = req.headers["content-type"] ?? "";
  if (req.method === "POST" && !type.toLowerCase().startsWith("application/json")) return problem(415);
  let json: Json;
  try {
    json = JSON.parse(body) as Json;
  } catch {
    return problem(400);
  }
  if (url.pathname === "/v2/deployments" && req.method === "POST") {
    if (
      !["codehost", "external_container", "internal_container", "internal_source", "internal_template"].includes(
        String(json.source),
      )
    )
      return problem(422);
    if (stored.some((d) => d.name === json.name)) return problem(409);
    counter += 1;
    const record = {
      ...json,
      id: `created-${counter}`,
      status: "AWAITING_DATABASE",
      created_at: "2026-02-01T00:00:00.000000Z",
      secrets: ((json.secrets as Json[] | undefined) ?? []).map((s) => ({ ...s, value: "********" })),
    };
    stored.unshift(record);
    return { status: 201, body: record };
  }
  if (url.pathname === "/v2/auth/providers" && req.method === "POST") {
    if (
      json.provider_type !== undefined &&
      !["microsoft", "salesforce", "slack", null].includes(json.provider_type as string)
    )
      return problem(422);
    const method = json.token_endpoint_auth_method;
    if (method !== undefined && !["none", "client_secret_basic", "client_secret_post"].includes(method as string))
      return problem(422);
    if (providers.some((p) => p.provider_id === json.provider_id)) return problem(409);
    const { client_secret, ...record } = json;
    providers.push({ ...record, id: `p-${providers.length}` });
    return { status: 200, body: record };
  }
  return problem(404);
}

let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const { status, body: out } = answer(req, body);
      // what the upstream received, so that a rewrite of the request shows in the answer too
      const seen = JSON.stringify({
        url: req.url,
        type: req.headers["content-type"],
        tenant: req.headers["x-tenant-id"],
        body,
      });
      // a 401 carries its challenge as the reference server's does (D-115)
      const challenge = status === 401 ? { "www-authenticate": 'ApiKey header="X-Api-Key"' } : {};
      res.writeHead(status, { "content-type": "application/json", "x-seen": encodeURIComponent(seen), ...challenge });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

/** One request of a sequence; `parallel` sends that many copies at once. */
interface Step {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  raw?: string;
  parallel?: number;
}

const withKey = (headers: Record<string, string> = {}) => ({ "X-Api-Key": key, ...headers });
const create = (body: Json): Step => ({ method: "POST", path: "/v2/deployments", json: body });
const deployment = (name: string, more: Json = {}) => ({
  name,
  source: "internal_template",
  source_config: {},
  source_revision_config: {},
  secrets: [],
  ...more,
});
const list = (query: string): Step => ({ path: `/v2/deployments?${query}` });
/** `count` secrets with distinct names. */
const secretList = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `S_${i}`, value: "v" }));
/** A codehost create of the demo repository acme/support-agent, naming an integration. */
const codehost = (config: Json, repoRef: string, integrationId: string) =>
  deployment("ch", {
    source: "codehost",
    source_config: {
      integration_id: integrationId,
      repo_url: "https://codehost.example/acme/support-agent",
      ...config,
    },
    source_revision_config: { repo_ref: repoRef, graph_config_path: "graph.json" },
  });

/** Runs a sequence through a proxy with the fault (or none) on a fresh upstream state; returns what the last step saw. */
async function run(fault: Fault | undefined, steps: Step[]): Promise<unknown[]> {
  reset();
  const proxy = await startFaultProxy(upstreamUrl, fault);
  try {
    let last: unknown[] = [];
    for (const step of steps) {
      const send = async () => {
        const headers: Record<string, string> = step.headers ?? withKey();
        if (step.json !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
          headers["Content-Type"] = "application/json";
        const res = await fetch(`${proxy.url}${step.path}`, {
          method: step.method ?? "GET",
          headers,
          body: step.raw ?? (step.json !== undefined ? JSON.stringify(step.json) : undefined),
        });
        const text = await res.text();
        return {
          status: res.status,
          body: text.replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<uuid>"'),
          seen: res.headers.get("x-seen"),
          challenge: res.headers.get("www-authenticate"),
        };
      };
      last = await Promise.all(Array.from({ length: step.parallel ?? 1 }, send));
    }
    return last;
  } finally {
    await proxy.close();
  }
}

/** For each subtle fault, a sequence whose last answer it must change. */
const given: Record<string, Step[]> = {
  "build-on-push-with-tag-accepted": [
    create(codehost({ build_on_push: true }, "refs/tags/v1.0.0", demo.acme.plainIntegrationId)),
  ],
  "repo-ref-unchecked": [create(codehost({}, "no-such-branch", demo.acme.plainIntegrationId))],
  "repo-url-of-any-integration": [create(codehost({}, "main", demo.acme.managedIntegrationId))],
  "image-version-last-colon-of-uri": [
    create(
      deployment("img", { source: "internal_container", source_revision_config: { image_uri: "r.example:5000/app" } }),
    ),
  ],
  "body-limit-decimal-megabyte": [
    { method: "POST", path: "/v2/deployments", raw: JSON.stringify(deployment("big")) + " ".repeat(1_000_100) },
  ],
  "tenant-header-checked-not-used": [
    { path: "/v2/deployments?limit=1", headers: withKey({ "X-Tenant-Id": demo.acme.stagingTenantId }) },
  ],
  "status-filter-never-matches": [list("status=READY")],
  "image-version-filter-never-matches": [list("image_version=1.2.3")],
  "provider-type-case-folded": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "a", provider_type: "Slack" } },
  ],
  "token-auth-method-case-folded": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "a", token_endpoint_auth_method: "NONE" } },
  ],
  "provider-name-cut-at-60": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "a", name: "n".repeat(255) } },
  ],
  "source-case-folded": [create(deployment("x", { source: "INTERNAL_TEMPLATE" }))],
  "deployment-type-case-folded": [list("deployment_type=DEV")],
  "status-filter-case-folded": [list("status=ready")],
  "rule-4-branch-of-first-repository": [list("deployment_ids=d-999")],
  "managed-integration-id-swapped": [list("deployment_ids=d-998")],
  "offset-ignored-with-status": [list("status=READY&limit=2&offset=2")],
  "offset-ignored-with-deployment-type": [list("deployment_type=dev&limit=2&offset=2")],
  "name-contains-like-wildcards": [list("name_contains=dep_1")],
  "name-contains-glob-wildcards": [list("name_contains=dep*1")],
  "name-contains-prefix-only": [list("name_contains=ep-1")],
  "image-version-prefix-match": [list("image_version=1.2")],
  "status-or-deployment-ids": [list("status=UNUSED&deployment_ids=d-999")],
  "limit-100-returns-99": [list("limit=100")],
  "limit-100-refused": [list("limit=100")],
  "limit-101-clamped": [list("limit=101")],
  "offset-zero-refused": [list("offset=0")],
  "offset-overflow-500": [list("offset=2147483648")],
  "integration-id-case-sensitive": [
    { path: `/v1/integrations/codehost/${demo.acme.plainIntegrationId.toUpperCase()}/repos` },
  ],
  "fractional-limit-truncated": [list("limit=2.5")],
  "lenient-integer-notation": [list("limit=%2B5")],
  "empty-limit-as-default": [list("limit=")],
  "timestamps-basic-offset-in-lists": [list("limit=1")],
  "pkce-method-default-lost-in-list": [{ path: "/v2/auth/providers" }],
  "every-11th-record-missing": [
    ...Array.from({ length: 11 }, (_, i) => create(deployment(`n-${i}`))),
    list("name_contains=n-&limit=100"),
  ],
  "heavy-records-left-out-of-pages": [
    create(deployment("heavy", { secrets: secretList(100).map((x) => ({ ...x, name: x.name.padEnd(255, "N") })) })),
    list("name_contains=heavy"),
  ],
  "client-secret-value-in-list": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "cs", client_secret: "s3cret" } },
    { path: "/v2/auth/providers" },
  ],
  "secret-references-kept-elsewhere": [
    create(deployment("refs", { secret_references: [{ name: "a", secret_name: "b", secret_key: "c" }] })),
  ],
  "pages-oldest-first-across": [list("limit=2")],
  "secret-values-clear-in-list": [
    create(deployment("sec", { secrets: [{ name: "S", value: "plain" }] })),
    list("name_contains=sec"),
  ],
  "awaiting-with-active-revision": [list("status=AWAITING_DATABASE&limit=1")],
  "commit-sha-lost-in-list": [list("deployment_ids=d-999")],
  "json-under-text-plain": [
    {
      method: "POST",
      path: "/v2/deployments",
      headers: withKey({ "Content-Type": "text/plain" }),
      raw: JSON.stringify(deployment("tp")),
    },
  ],
  "json-with-charset-refused": [
    {
      method: "POST",
      path: "/v2/deployments",
      headers: withKey({ "Content-Type": "application/json; charset=utf-8" }),
      raw: JSON.stringify(deployment("cs")),
    },
  ],
  "auth-after-body": [{ method: "POST", path: "/v2/deployments", headers: {}, json: { name: 1 } }],
  "auth-after-query": [{ path: "/v2/deployments?limit=0", headers: {} }],
  "api-key-header-case-sensitive": [{ path: "/v2/deployments?limit=1", headers: { "x-api-key": key } }],
  "tenant-header-case-sensitive": [
    { path: "/v2/deployments?limit=1", headers: withKey({ "x-tenant-id": foreignTenant }) },
  ],
  "challenge-left-out": [{ path: "/v2/deployments", headers: {} }],
  "unknown-key-detail-empty": [{ path: "/v2/deployments", headers: { "X-Api-Key": "dk_unknown" } }],
  "problem-status-mismatch-403": [{ path: "/v2/deployments", headers: withKey({ "X-Tenant-Id": foreignTenant }) }],
  "forbidden-field-dropped": [
    create(deployment("fd", { source: "internal_container", source_config: { install_command: "npm ci" } })),
  ],
  "blank-required-accepted": [
    create(deployment("br", { source: "internal_source", source_revision_config: { graph_config_path: " " } })),
  ],
  "duplicate-name-race": [{ ...create(deployment("dep-5")), parallel: 3 }],
  "source-rule-before-schema": [create(deployment("ext", { source: "external_container" }))],
  "graph-config-path-cut-at-255": [
    create(
      deployment("gc", { source: "internal_source", source_revision_config: { graph_config_path: "g".repeat(300) } }),
    ),
  ],
  "image-uri-over-bound-truncated": [
    create(deployment("iu", { source: "internal_container", source_revision_config: { image_uri: "r".repeat(2049) } })),
  ],
  "secrets-capped-at-50": [create(deployment("s60", { secrets: secretList(60) }))],
  "secrets-beyond-100-dropped": [create(deployment("s101", { secrets: secretList(101) }))],
  "deployment-ids-capped-at-50": [
    list(`deployment_ids=${Array.from({ length: 60 }, (_, i) => `d-${1000 - i}`).join(",")}`),
  ],
  "name-contains-over-255-truncated": [list(`name_contains=${"n".repeat(256)}`)],
  "explicit-null-install-command-refused": [create(deployment("ni", { source_config: { install_command: null } }))],
  "explicit-null-resource-spec-refused": [
    create(deployment("nr", { source: "external_container", source_config: { resource_spec: null } })),
  ],
  "null-install-command-echoed-empty": [create(deployment("ne", { source_config: { install_command: null } }))],
  "deployment-name-lowercased": [create(deployment("Zeta-AZ09"))],
  "deployment-ids-case-sensitive": [list("deployment_ids=D-1000")],
  "blank-forbidden-field-ignored": [create(deployment("bf", { source_config: { custom_url: "" } }))],
  "optional-build-command-dropped": [
    create(deployment("bc", { source: "internal_source", source_config: { build_command: "make" } })),
  ],
  "repo-url-compared-exactly": [
    create(
      deployment("ru", {
        source: "codehost",
        source_config: { repo_url: "https://codehost.example/acme/support-agent.git" },
      }),
    ),
  ],
  "repo-url-one-trailing-slash": [
    create(
      deployment("rs", {
        source: "codehost",
        source_config: { repo_url: "https://codehost.example/acme/support-agent//" },
      }),
    ),
  ],
  "stored-size-bound-exclusive": [
    create(
      deployment("sz", {
        source: "internal_source",
        // the padding fills 65,536 bytes with the 2 of the empty revision config
        source_config: { install_command: "x".repeat(65_536 - JSON.stringify({ install_command: "" }).length - 2) },
        source_revision_config: {},
      }),
    ),
  ],
  "cpu-limit-defaults-to-request": [
    create(deployment("cl", { source: "external_container", source_config: { resource_spec: { cpu: 0.5 } } })),
  ],
  "plain-http-custom-url-refused": [
    create(deployment("hu", { source: "external_container", source_config: { custom_url: "http://app.example.com" } })),
  ],
  "remote-reconciled-alone-ignored": [list("remote_reconciled=true")],
  "provider-id-unique-across-organizations": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "shared" } },
    {
      method: "POST",
      path: "/v2/auth/providers",
      headers: { "X-Api-Key": demo.globex.apiKey },
      json: { provider_id: "shared" },
    },
  ],
  "provider-id-unique-per-tenant": [
    { method: "POST", path: "/v2/auth/providers", json: { provider_id: "p0" } },
    {
      method: "POST",
      path: "/v2/auth/providers",
      headers: withKey({ "X-Tenant-Id": demo.acme.stagingTenantId }),
      json: { provider_id: "p0" },
    },
  ],
};

describe("subtle faults", () => {
  it("has at least 25 faults, ids unique across both catalogs, each MUST or SHOULD with a one-line description", () => {
    expect(subtleFaults.length).toBeGreaterThanOrEqual(25);
    const ids = [...faults, ...subtleFaults].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of subtleFaults) {
      expect(["MUST", "SHOULD"]).toContain(f.level);
      expect(f.description).not.toContain("\n");
    }
  });

  it("gives every fault a sequence", () => {
    expect(subtleFaults.map((f) => f.id).filter((id) => !given[id])).toEqual([]);
  });

  it("sees no change through a transparent proxy (the comparison below can tell)", async () => {
    const steps = given["every-11th-record-missing"]!;
    expect(await run(undefined, steps)).toEqual(await run(undefined, steps));
  });

  for (const fault of subtleFaults)
    it(`${fault.id} changes the answer`, async () => {
      const steps = given[fault.id]!;
      expect(await run(fault, steps)).not.toEqual(await run(undefined, steps));
    });
});
