/** Subtler faulty implementations: each breaks one rule only at an edge (a letter case, a page boundary, one filter, one answer, concurrency). */
import { createContractAjv, demo, demoFixture, operation } from "../../contract/index.js";
import {
  deploymentsPath,
  eachDeployment,
  eachProvider,
  isDeployments,
  isProviders,
  type Json,
  madeUpDeployment,
  mapJson,
  ok,
  problemOf,
} from "./catalog.js";
import { edgeFaults } from "./edge-catalog.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

type Upstream = Parameters<NonNullable<Fault["response"]>>[2];

const isList = (r: ProxyRequest) => isDeployments(r) && r.method === "GET";
const isCreate = (r: ProxyRequest) => isDeployments(r) && r.method === "POST";
const isProviderCreate = (r: ProxyRequest) => isProviders(r) && r.method === "POST";
const params = (r: ProxyRequest) => r.url.searchParams;
const demoKeys = new Set<string>([demo.acme.apiKey, demo.globex.apiKey]);
/** No key, or a key the demo data does not know. */
const unauthenticated = (r: ProxyRequest) => !demoKeys.has(r.headers["x-api-key"] ?? "");

/** Lowercases a string field of the JSON body when it is a string. */
function lowerField(req: ProxyRequest, field: string): void {
  const body = req.json as Json | undefined;
  if (body && typeof body[field] === "string") body[field] = (body[field] as string).toLowerCase();
}

/** Every deployment matching a query (its limit and offset dropped), read page by page from the upstream, newest first. */
async function everyMatch(req: ProxyRequest, upstream: Upstream, query: URLSearchParams): Promise<Json[] | undefined> {
  const q = new URLSearchParams(query);
  q.delete("limit");
  q.delete("offset");
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    q.set("limit", "100");
    q.set("offset", String(offset));
    const res = await upstream("GET", `${deploymentsPath}?${q}`, req.headers);
    if (!ok(res)) return undefined;
    const page = (JSON.parse(res.body) as Json).resources as Json[];
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** The page the request asked for, cut out of a whole list. */
function pageOf(req: ProxyRequest, all: Json[]): ProxyResponse {
  const limit = Number(params(req).get("limit") ?? 20);
  const offset = Number(params(req).get("offset") ?? 0);
  const resources = all.slice(offset, offset + limit);
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ resources, offset: offset + resources.length }),
  };
}

/** Answers a list request by re-filtering the whole list without one parameter, by a predicate of that parameter's value. */
function refilter(
  param: string,
  applies: (value: string) => boolean,
  matches: (record: Json, value: string) => boolean,
): Fault["response"] {
  return async (req, res, upstream) => {
    const value = params(req).get(param);
    if (!isList(req) || !ok(res) || value === null || !applies(value)) return undefined;
    const query = new URLSearchParams(params(req));
    query.delete(param);
    const all = await everyMatch(req, upstream, query);
    return (
      all &&
      pageOf(
        req,
        all.filter((r) => matches(r, value)),
      )
    );
  };
}

/** A regular expression for a pattern where some characters are wildcards. */
function wildcardRegex(pattern: string, wild: Record<string, string>): RegExp {
  const body = [...pattern].map((c) => wild[c] ?? c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("");
  return new RegExp(body, "i");
}

const newestFirst = (a: Json, b: Json) =>
  String(b.created_at).localeCompare(String(a.created_at)) || String(b.id).localeCompare(String(a.id));

/** Validates a create body against the contract's request schema (for the faults that judge a body before the key). */
const ajv = createContractAjv({ allErrors: false });
const bodyValid = (operationId: "createDeployment" | "createOAuthProvider", body: unknown) =>
  ajv.at(operation(operationId).requestBody!.pointer)(body) as boolean;

/** Demo integrations by id, for the faults that copy a field from the wrong repository. */
const integrations = new Map(demoFixture.integrations.map((i) => [i.id, i]));

/** Faults that keep state between requests (what was created) get it from a factory, one state per fault. */
function lostRecords(every: number): Fault {
  let created = 0;
  const hidden = new Set<string>();
  return {
    id: "every-11th-record-missing",
    level: "MUST",
    description: `Every ${every}th deployment created is missing from every list (the create answer is right)`,
    response: (req, res) => {
      if (isCreate(req) && ok(res)) {
        created += 1;
        if (created % every === 0) hidden.add(String((JSON.parse(res.body) as Json).id));
        return undefined;
      }
      if (!isList(req) || !ok(res)) return undefined;
      return mapJson(res, (b) => ({
        ...(b as Json),
        resources: ((b as Json).resources as Json[]).filter((r) => !hidden.has(String(r.id))),
      }));
    },
  };
}

/** DEP-LIST-040: a store that reads a page's texts up to 16 KiB each and drops the longer ones it left unread (D-350). */
const heavyRecordsDropped: Fault = {
  id: "heavy-records-left-out-of-pages",
  level: "SHOULD",
  description:
    "A list page leaves out every deployment whose JSON text is over 16 KiB (many long secret names), its offset still counting them",
  response: (req, res) => {
    if (!isList(req) || !ok(res)) return undefined;
    return mapJson(res, (b) => ({
      ...(b as Json),
      resources: ((b as Json).resources as Json[]).filter((r) => JSON.stringify(r).length <= 16 * 1024),
    }));
  },
};

function clientSecretInList(): Fault {
  const secrets = new Map<string, string>();
  return {
    id: "client-secret-value-in-list",
    level: "MUST",
    description: "Provider lists carry the client_secret value under the field name secret (create answers are right)",
    request: (req) => {
      const body = req.json as Json | undefined;
      if (isProviderCreate(req) && typeof body?.client_secret === "string")
        secrets.set(String(body.provider_id), body.client_secret);
      return undefined;
    },
    response: (req, res) =>
      isProviders(req) && req.method === "GET" && ok(res)
        ? eachProvider(res, (p) => {
            const s = secrets.get(String(p.provider_id));
            if (s) p.secret = s;
          })
        : undefined,
  };
}

function secretsClearInList(): Fault {
  const values = new Map<string, string>();
  return {
    id: "secret-values-clear-in-list",
    level: "SHOULD",
    description: "Deployment secret values are masked in the create answer but returned in clear by the list",
    request: (req) => {
      const body = req.json as Json | undefined;
      if (isCreate(req) && Array.isArray(body?.secrets))
        for (const s of body.secrets as Json[]) values.set(`${String(body.name)}/${String(s.name)}`, String(s.value));
      return undefined;
    },
    response: (req, res) =>
      isList(req) && ok(res)
        ? eachDeployment(res, (d) => {
            for (const s of (d.secrets as Json[] | undefined) ?? []) {
              const v = values.get(`${String(d.name)}/${String(s.name)}`);
              if (v !== undefined) s.value = v;
            }
          })
        : undefined,
  };
}

function secretReferencesKept(): Fault {
  const kept = new Map<string, unknown>();
  return {
    id: "secret-references-kept-elsewhere",
    level: "MUST",
    description:
      "secret_references sent for a source other than external_container are kept and returned (create and list)",
    request: (req) => {
      const body = req.json as Json | undefined;
      if (isCreate(req) && body && body.source !== "external_container" && Array.isArray(body.secret_references)) {
        req.headers["x-fault-refs"] = JSON.stringify(body.secret_references);
        delete body.secret_references;
      }
      return undefined;
    },
    response: (req, res) => {
      if (!isDeployments(req) || !ok(res)) return undefined;
      const sent = req.headers["x-fault-refs"];
      return eachDeployment(res, (d) => {
        if (sent) kept.set(String(d.id), JSON.parse(sent));
        if (kept.has(String(d.id))) d.secret_references = kept.get(String(d.id));
      });
    },
  };
}

function duplicateRace(): Fault {
  const inFlight = new Map<string, number>();
  return {
    id: "duplicate-name-race",
    level: "SHOULD",
    description:
      "A duplicate name is accepted when the creates arrive at the same time (sequential duplicates still get 409)",
    request: (req) => {
      const name = (req.json as Json | undefined)?.name;
      if (!isCreate(req) || typeof name !== "string") return undefined;
      const n = inFlight.get(name) ?? 0;
      if (n > 0) req.headers["x-fault-concurrent"] = "1";
      inFlight.set(name, n + 1);
      return undefined;
    },
    response: async (req, res) => {
      const name = (req.json as Json | undefined)?.name;
      if (!isCreate(req) || typeof name !== "string") return undefined;
      // answer after the other concurrent creates had their chance to arrive
      await new Promise((r) => setTimeout(r, 20));
      inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
      return res.status === 409 && req.headers["x-fault-concurrent"] ? madeUpDeployment(req.json as Json) : undefined;
    },
  };
}

export const subtleFaults: Fault[] = [
  heavyRecordsDropped,
  {
    id: "provider-type-case-folded",
    level: "MUST",
    description: "provider_type is accepted in any letter case (Slack is stored as slack)",
    request: (req) => void (isProviderCreate(req) && lowerField(req, "provider_type")),
  },
  {
    id: "token-auth-method-case-folded",
    level: "MUST",
    description: "token_endpoint_auth_method is accepted in any letter case",
    request: (req) => void (isProviderCreate(req) && lowerField(req, "token_endpoint_auth_method")),
  },
  {
    id: "provider-name-cut-at-60",
    level: "SHOULD",
    description: "A provider name longer than 60 characters is stored cut at 60 (the bound is 255)",
    request: (req) => {
      const body = req.json as Json | undefined;
      if (isProviderCreate(req) && body && typeof body.name === "string") body.name = body.name.slice(0, 60);
      return undefined;
    },
  },
  {
    id: "source-case-folded",
    level: "MUST",
    description:
      "A deployment source is accepted in any letter case (INTERNAL_TEMPLATE is stored as internal_template)",
    request: (req) => void (isCreate(req) && lowerField(req, "source")),
  },
  {
    id: "deployment-type-case-folded",
    level: "MUST",
    description: "deployment_type is accepted in any letter case (DEV reads as dev)",
    request: (req) => {
      const v = params(req).get("deployment_type");
      if (isList(req) && v) params(req).set("deployment_type", v.toLowerCase());
      return undefined;
    },
  },
  {
    id: "status-filter-case-folded",
    level: "SHOULD",
    description: "status filter values are accepted in any letter case (ready reads as READY)",
    request: (req) => {
      const v = params(req).get("status");
      if (isList(req) && v) params(req).set("status", v.toUpperCase());
      return undefined;
    },
  },
  {
    id: "rule-4-branch-of-first-repository",
    level: "MUST",
    description:
      "A codehost deployment reports repo_ref as the default branch of its integration's first repository, not of its own",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const c = d.source_config as Json | undefined;
            const first = integrations.get(String(c?.integration_id))?.repositories[0];
            if (first) (d.source_revision_config as Json).repo_ref = first.default_branch;
          })
        : undefined,
  },
  {
    id: "managed-integration-id-swapped",
    level: "MUST",
    description:
      "A deployment from a managed (operation 4) repository reports the tenant's plain integration as integration_id",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const c = d.source_config as Json | undefined;
            if (c?.integration_id === demo.acme.managedIntegrationId) c.integration_id = demo.acme.plainIntegrationId;
          })
        : undefined,
  },
  {
    id: "offset-ignored-with-status",
    level: "MUST",
    description: "offset is ignored when a status filter is present",
    request: (req) => void (isList(req) && params(req).has("status") && params(req).delete("offset")),
  },
  {
    id: "offset-ignored-with-deployment-type",
    // which deployments a deployment_type matches is D-43 and a page as a slice of the whole list is D-08/D-09: the
    // interface spec alone decides no walk under this filter (D-180)
    level: "SHOULD",
    description: "offset is ignored when a deployment_type filter is present",
    request: (req) => void (isList(req) && params(req).has("deployment_type") && params(req).delete("offset")),
  },
  {
    id: "name-contains-like-wildcards",
    level: "MUST",
    description: "name_contains is passed to LIKE unescaped: % and _ act as wildcards",
    response: refilter(
      "name_contains",
      (v) => /[%_]/.test(v),
      (r, v) => wildcardRegex(v, { "%": ".*", _: "." }).test(String(r.name)),
    ),
  },
  {
    id: "name-contains-glob-wildcards",
    level: "MUST",
    description: "name_contains treats * and ? as glob wildcards",
    response: refilter(
      "name_contains",
      (v) => /[*?]/.test(v),
      (r, v) => wildcardRegex(v, { "*": ".*", "?": "." }).test(String(r.name)),
    ),
  },
  {
    id: "name-contains-prefix-only",
    level: "MUST",
    description: "name_contains matches only names that start with the value",
    response: refilter(
      "name_contains",
      () => true,
      (r, v) => String(r.name).toLowerCase().startsWith(v.toLowerCase()),
    ),
  },
  {
    id: "image-version-prefix-match",
    level: "MUST",
    description: "image_version matches every version that starts with the value (1.2 finds 1.2.3)",
    response: refilter(
      "image_version",
      () => true,
      (r, v) => typeof r.image_version === "string" && r.image_version.startsWith(v),
    ),
  },
  {
    id: "status-or-deployment-ids",
    // that filters combine with AND is D-45, not the interface spec (D-180)
    level: "SHOULD",
    description:
      "status and deployment_ids combine with OR: the listed ids are returned whatever their status, with every deployment of that status",
    async response(req, res, upstream) {
      if (!isList(req) || !ok(res) || !params(req).has("status") || !params(req).has("deployment_ids"))
        return undefined;
      const byStatus = new URLSearchParams(params(req));
      byStatus.delete("deployment_ids");
      const byIds = new URLSearchParams(params(req));
      byIds.delete("status");
      const a = await everyMatch(req, upstream, byStatus);
      const b = await everyMatch(req, upstream, byIds);
      if (!a || !b) return undefined;
      const union = new Map([...a, ...b].map((r) => [String(r.id), r]));
      return pageOf(req, [...union.values()].sort(newestFirst));
    },
  },
  {
    id: "limit-100-returns-99",
    // limit is a maximum in the interface spec; a page of exactly limit while more exist is D-09
    level: "SHOULD",
    description: "limit=100 returns at most 99 deployments (an off-by-one at the upper bound; D-09)",
    response: (req, res) =>
      isList(req) && ok(res) && params(req).get("limit") === "100"
        ? mapJson(res, (b) => {
            const page = b as Json;
            const resources = page.resources as Json[];
            if (resources.length === 100) {
              resources.pop();
              page.offset = (page.offset as number) - 1;
            }
            return page;
          })
        : undefined,
  },
  {
    id: "limit-100-refused",
    level: "MUST",
    description: "limit=100 is refused with 422 (the maximum is read as exclusive)",
    request: (req) =>
      isList(req) && params(req).get("limit") === "100"
        ? problemOf(422, "validation", "Request validation failed", "limit must be less than 100", {
            errors: [{ parameter: "limit", detail: "must be < 100" }],
          })
        : undefined,
  },
  {
    id: "limit-101-clamped",
    level: "MUST",
    description: "limit above 100 is clamped to 100 instead of refused",
    request: (req) => {
      const v = Number(params(req).get("limit"));
      if (isList(req) && Number.isInteger(v) && v > 100) params(req).set("limit", "100");
      return undefined;
    },
  },
  {
    id: "offset-zero-refused",
    level: "MUST",
    description: "An explicit offset=0 is refused with 422 (the minimum is read as exclusive)",
    request: (req) =>
      isList(req) && params(req).get("offset") === "0"
        ? problemOf(422, "validation", "Request validation failed", "offset must be greater than 0", {
            errors: [{ parameter: "offset", detail: "must be > 0" }],
          })
        : undefined,
  },
  {
    id: "fractional-limit-truncated",
    level: "MUST",
    description: "A fractional limit or offset (2.5) is truncated to an integer instead of refused",
    request: (req) => {
      if (!isList(req)) return undefined;
      for (const p of ["limit", "offset"]) {
        const v = params(req).get(p);
        if (v && /^\d+\.\d+$/.test(v)) params(req).set(p, String(Math.trunc(Number(v))));
      }
      return undefined;
    },
  },
  {
    id: "lenient-integer-notation",
    level: "SHOULD",
    description: "limit and offset are read leniently: +5, ' 5' and 5.0 are taken as 5",
    request: (req) => {
      if (!isList(req)) return undefined;
      for (const p of ["limit", "offset"]) {
        const v = params(req).get(p);
        if (v && /^\s*\+?\d+(\.0+)?\s*$/.test(v)) params(req).set(p, String(Number(v)));
      }
      return undefined;
    },
  },
  {
    id: "empty-limit-as-default",
    level: "SHOULD",
    description: "An empty limit= or offset= is read as absent (the default) instead of refused",
    request: (req) => {
      if (!isList(req)) return undefined;
      for (const p of ["limit", "offset"]) if (params(req).get(p) === "") params(req).delete(p);
      return undefined;
    },
  },
  {
    id: "timestamps-basic-offset-in-lists",
    level: "MUST",
    description:
      "List answers write created_at and updated_at with a +0000 offset, which is not RFC 3339 (create answers are right)",
    response: (req, res) =>
      isList(req) && ok(res)
        ? eachDeployment(res, (d) => {
            for (const k of ["created_at", "updated_at"])
              if (typeof d[k] === "string") d[k] = (d[k] as string).replace(/Z$/, "+0000");
          })
        : undefined,
  },
  {
    id: "pkce-method-default-lost-in-list",
    level: "MUST",
    description:
      "A provider created with uses_pkce true and no code_challenge_method is listed with code_challenge_method null",
    response: (req, res) =>
      isProviders(req) && req.method === "GET" && ok(res)
        ? eachProvider(res, (p) => {
            if (p.uses_pkce === true && p.code_challenge_method === "S256") p.code_challenge_method = null;
          })
        : undefined,
  },
  lostRecords(11),
  clientSecretInList(),
  secretReferencesKept(),
  {
    id: "pages-oldest-first-across",
    level: "SHOULD",
    description: "Each page is newest first, but the pages run oldest first (page 1 holds the oldest deployments)",
    async response(req, res, upstream) {
      if (!isList(req) || !ok(res)) return undefined;
      const all = await everyMatch(req, upstream, params(req));
      if (!all) return undefined;
      const page = JSON.parse(pageOf(req, [...all].reverse()).body) as Json;
      return {
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...page, resources: (page.resources as Json[]).reverse() }),
      };
    },
  },
  secretsClearInList(),
  {
    id: "awaiting-with-active-revision",
    level: "SHOULD",
    description: "Listed deployments still AWAITING_DATABASE already carry active_revision_id (= latest_revision_id)",
    response: (req, res) =>
      isList(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (d.status === "AWAITING_DATABASE") d.active_revision_id = d.latest_revision_id;
          })
        : undefined,
  },
  {
    id: "commit-sha-lost-in-list",
    level: "SHOULD",
    description: "Listed codehost deployments carry repo_commit_sha null (the create answer has it)",
    response: (req, res) =>
      isList(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const r = d.source_revision_config as Json | undefined;
            if (d.source === "codehost" && r) r.repo_commit_sha = null;
          })
        : undefined,
  },
  {
    id: "json-under-text-plain",
    level: "SHOULD",
    description: "A JSON body sent as text/plain is parsed as JSON and accepted",
    request: (req) => {
      if (req.method === "POST" && req.headers["content-type"]?.startsWith("text/plain") && req.json !== undefined)
        req.headers["content-type"] = "application/json";
      return undefined;
    },
  },
  {
    id: "json-with-charset-refused",
    level: "SHOULD",
    description:
      "Only the exact Content-Type application/json is accepted: with a charset parameter or in capitals it answers 415",
    request: (req) => {
      const type = req.headers["content-type"];
      return req.method === "POST" &&
        type !== undefined &&
        type !== "application/json" &&
        type.toLowerCase().startsWith("application/json")
        ? problemOf(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            `Send the request body as application/json, not ${type}.`,
          )
        : undefined;
    },
  },
  {
    id: "auth-after-body",
    level: "SHOULD",
    description:
      "The body is judged before the key: a bad body without a valid key answers 400, 415 or 422 instead of 401",
    request: (req) => {
      if (req.method !== "POST" || !unauthenticated(req) || !(isDeployments(req) || isProviders(req))) return undefined;
      if (!req.headers["content-type"]?.startsWith("application/json"))
        return problemOf(
          415,
          "unsupported-media-type",
          "Unsupported media type",
          "Send the request body as application/json.",
        );
      if (req.json === undefined) return problemOf(400, "malformed-json", "Malformed JSON", "The body is not JSON.");
      return bodyValid(isDeployments(req) ? "createDeployment" : "createOAuthProvider", req.json)
        ? undefined
        : problemOf(422, "validation", "Request validation failed", "The request body breaks the schema.", {
            errors: [],
          });
    },
  },
  {
    id: "auth-after-query",
    level: "SHOULD",
    description: "List parameters are judged before the key: limit=0 without a valid key answers 422 instead of 401",
    request: (req) => {
      const limit = params(req).get("limit");
      return isList(req) && unauthenticated(req) && limit !== null && !(Number(limit) >= 1 && Number(limit) <= 100)
        ? problemOf(422, "validation", "Request validation failed", "limit is out of range.", {
            errors: [{ parameter: "limit", detail: "must be 1 to 100" }],
          })
        : undefined;
    },
  },
  {
    id: "api-key-header-case-sensitive",
    level: "SHOULD",
    description: "The key is read only from a header written exactly X-Api-Key (x-api-key is not recognised)",
    request: (req) => {
      const raw = req.rawHeaderNames.find((n) => n.toLowerCase() === "x-api-key");
      if (raw !== undefined && raw !== "X-Api-Key") delete req.headers["x-api-key"];
      return undefined;
    },
  },
  {
    id: "tenant-header-case-sensitive",
    level: "SHOULD",
    description:
      "The tenant is read only from a header written exactly X-Tenant-Id (others fall back to the default tenant)",
    request: (req) => {
      const raw = req.rawHeaderNames.find((n) => n.toLowerCase() === "x-tenant-id");
      if (raw !== undefined && raw !== "X-Tenant-Id") delete req.headers["x-tenant-id"];
      return undefined;
    },
  },
  {
    id: "challenge-left-out",
    level: "SHOULD",
    description: "A 401 carries no WWW-Authenticate challenge",
    response: (_req, res) => {
      if (res.status !== 401) return undefined;
      const { "www-authenticate": _challenge, ...headers } = res.headers;
      return { ...res, headers };
    },
  },
  {
    id: "unknown-key-detail-empty",
    level: "SHOULD",
    description: "The 401 of an unknown API key (not of a missing one) carries an empty detail",
    response: (req, res) =>
      res.status === 401 && (req.headers["x-api-key"] ?? "") !== ""
        ? mapJson(res, (b) => ({ ...(b as Json), detail: "" }))
        : undefined,
  },
  {
    id: "problem-status-mismatch-403",
    level: "SHOULD",
    description: "403 answers carry status 401 in their problem body",
    response: (_req, res) => (res.status === 403 ? mapJson(res, (b) => ({ ...(b as Json), status: 401 })) : undefined),
  },
  {
    id: "forbidden-field-dropped",
    level: "SHOULD",
    description:
      "install_command and build_command on an internal_container deployment are dropped silently instead of answering 400",
    request: (req) => {
      const body = req.json as Json | undefined;
      const config = body?.source_config as Json | undefined;
      if (isCreate(req) && body?.source === "internal_container" && config) {
        delete config.install_command;
        delete config.build_command;
      }
      return undefined;
    },
  },
  {
    id: "blank-required-accepted",
    level: "SHOULD",
    description: "A blank graph_config_path of an internal_source deployment is accepted (replaced by graph.json)",
    request: (req) => {
      const body = req.json as Json | undefined;
      const revision = body?.source_revision_config as Json | undefined;
      if (
        isCreate(req) &&
        body?.source === "internal_source" &&
        typeof revision?.graph_config_path === "string" &&
        revision.graph_config_path.trim() === ""
      )
        revision.graph_config_path = "graph.json";
      return undefined;
    },
  },
  duplicateRace(),
  {
    id: "source-rule-before-schema",
    level: "SHOULD",
    description:
      "An unavailable source answers 400 source-rule even when the body also breaks the schema (which should be 422 first)",
    request: (req) =>
      isCreate(req) && (req.json as Json | undefined)?.source === "external_container" && !unauthenticated(req)
        ? problemOf(
            400,
            "source-rule",
            "Source rule broken",
            "Source 'external_container' is not available on this service.",
            {
              errors: [{ pointer: "/source", detail: "not available" }],
            },
          )
        : undefined,
  },
  ...boundFaults(),
  ...edgeFaults(),
];

/** The repository of the demo data with this url, and its integration. */
function demoRepository(url: unknown) {
  for (const integration of demoFixture.integrations)
    for (const repo of integration.repositories) if (repo.url === url) return { integration, repo };
  return undefined;
}

/** The codehost create's source_config and source_revision_config, when the request is one. */
function codehostCreate(req: ProxyRequest): { config: Json; revision: Json } | undefined {
  const body = req.json as Json | undefined;
  if (!isCreate(req) || body?.source !== "codehost") return undefined;
  const config = body.source_config as Json | undefined;
  const revision = body.source_revision_config as Json | undefined;
  return config && revision ? { config, revision } : undefined;
}

/** The demo tenants a demo key reaches (D-14). */
const reachable = new Set<string>(demoFixture.organizations.flatMap((o) => o.tenants.map((t) => t.id.toLowerCase())));

/** Faults at the edges the planted bugs of an independent implementation found: each accepts or bends what is just inside or just outside a bound or scope. */
function boundFaults(): Fault[] {
  return [
    {
      id: "build-on-push-with-tag-accepted",
      level: "SHOULD",
      description: "build_on_push true with a tag ref is accepted (D-51 refuses it)",
      request: (req) => {
        const c = codehostCreate(req);
        if (c?.config.build_on_push === true && String(c.revision.repo_ref).startsWith("refs/tags/"))
          c.config.build_on_push = false;
        return undefined;
      },
    },
    {
      id: "repo-ref-unchecked",
      level: "SHOULD",
      description: "A codehost repo_ref is not checked against the repository's branches and tags (D-49)",
      request: (req) => {
        const c = codehostCreate(req);
        const found = c && demoRepository(c.config.repo_url);
        if (!c || !found) return undefined;
        const ref = String(c.revision.repo_ref);
        const tags = (found.repo as { tags?: Record<string, string> }).tags ?? {};
        if (!(ref in found.repo.branches) && !(ref in tags)) c.revision.repo_ref = found.repo.default_branch;
        return undefined;
      },
    },
    {
      id: "repo-url-of-any-integration",
      level: "SHOULD",
      description: "A codehost repo_url is taken from any integration of the tenant, not only the named one (D-49)",
      request: (req) => {
        const c = codehostCreate(req);
        const found = c && demoRepository(c.config.repo_url);
        if (c && found && found.integration.id !== c.config.integration_id)
          c.config.integration_id = found.integration.id;
        return undefined;
      },
    },
    {
      id: "image-version-last-colon-of-uri",
      level: "SHOULD",
      description:
        "image_version is cut at the last ':' of the whole image_uri (a registry port or a digest becomes the version)",
      response: (req, res) =>
        isDeployments(req) && ok(res)
          ? eachDeployment(res, (d) => {
              const uri = (d.source_revision_config as Json | undefined)?.image_uri;
              if (typeof uri === "string" && String(d.source).endsWith("_container") && uri.includes(":"))
                d.image_version = uri.slice(uri.lastIndexOf(":") + 1);
            })
          : undefined,
    },
    {
      id: "body-limit-decimal-megabyte",
      level: "SHOULD",
      description: "413 above 1,000,000 bytes instead of 1,048,576 (D-30)",
      request: (req) =>
        req.method === "POST" && Buffer.byteLength(req.body) > 1_000_000 && Buffer.byteLength(req.body) <= 1024 * 1024
          ? problemOf(413, "payload-too-large", "Payload too large", "The request body exceeds 1000000 bytes.")
          : undefined,
    },
    {
      id: "tenant-header-checked-not-used",
      level: "SHOULD",
      description:
        "X-Tenant-Id is checked (403 for a tenant the key cannot reach) but the data is the key's default tenant's (D-14)",
      request: (req) => {
        const tenant = req.headers["x-tenant-id"]?.toLowerCase();
        // the demo keys' own tenants pass the check upstream; the default tenant then serves them
        if (
          tenant &&
          reachable.has(tenant) &&
          !unauthenticated(req) &&
          tenant !== demo.acme.productionTenantId &&
          tenant !== demo.globex.productionTenantId
        )
          delete req.headers["x-tenant-id"];
        return undefined;
      },
    },
    {
      id: "status-filter-never-matches",
      level: "MUST",
      description: "The status filter returns no deployment, whatever the value (what is returned still matches)",
      response: (req, res) =>
        isList(req) && params(req).has("status") && ok(res)
          ? mapJson(res, (b) => ({ ...(b as Json), resources: [] }))
          : undefined,
    },
    {
      id: "image-version-filter-never-matches",
      level: "MUST",
      description:
        "The image_version filter returns no deployment, whatever the value (what is returned still matches)",
      response: (req, res) =>
        isList(req) && params(req).has("image_version") && ok(res)
          ? mapJson(res, (b) => ({ ...(b as Json), resources: [] }))
          : undefined,
    },
  ];
}
