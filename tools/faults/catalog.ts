/** The deliberately faulty implementations the suite must catch, each exactly one fault. */
import { isUtf8 } from "node:buffer";
import { demo, matchPath, operation } from "../../contract/index.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

export type Json = Record<string, unknown>;

export const deploymentsPath = operation("listDeployments").path;
export const isDeployments = (r: ProxyRequest) => r.url.pathname === deploymentsPath;
export const isProviders = (r: ProxyRequest) => r.url.pathname === operation("listOAuthProviders").path;
const repositoryOperations = new Set(["listCodehostRepositories", "listManagedCodehostRepositories"]);
const isRepos = (r: ProxyRequest) => {
  const match = matchPath("GET", r.url.pathname);
  return match.kind === "operation" && repositoryOperations.has(match.operation.id);
};
export const ok = (res: ProxyResponse) => res.status >= 200 && res.status < 300;

/** Rewrites the JSON body of a response. */
export function mapJson(res: ProxyResponse, f: (body: unknown) => unknown): ProxyResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    return res;
  }
  return { ...res, body: JSON.stringify(f(parsed)) };
}

/** Applies a change to every deployment record of a list page or create answer. */
export function eachDeployment(res: ProxyResponse, f: (d: Json) => void): ProxyResponse {
  return mapJson(res, (b) => {
    const body = b as Json;
    if (Array.isArray(body.resources)) (body.resources as Json[]).forEach(f);
    else if (typeof body.id === "string") f(body);
    return body;
  });
}

/** Applies a change to the resource spec of every deployment of an answer that has one. */
function eachResourceSpec(res: ProxyResponse, f: (spec: Json) => void): ProxyResponse {
  return eachDeployment(res, (d) => {
    const spec = (d.source_config as Json | null | undefined)?.resource_spec;
    if (spec && typeof spec === "object") f(spec as Json);
  });
}

/** Sorts records by their name member, as a store keyed by name reads them back. */
const byName = (a: Json, b: Json) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0);

/** Leaves out every member whose value is false, at any depth, as a store that writes only truthy values does. */
function withoutFalse(value: unknown): void {
  if (Array.isArray(value)) value.forEach(withoutFalse);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (v === false) delete (value as Json)[k];
      else withoutFalse(v);
    }
}

/** The value with every number in it, at any depth, written as text. */
function numbersAsText(value: unknown): unknown {
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(numbersAsText);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, numbersAsText(item)]));
  return value;
}

/** Applies a change to every provider record of a list or create answer. */
export function eachProvider(res: ProxyResponse, f: (p: Json) => void): ProxyResponse {
  return mapJson(res, (b) => {
    if (Array.isArray(b)) (b as Json[]).forEach(f);
    else if (b && typeof b === "object") f(b as Json);
    return b;
  });
}

/** A problem detail (D-16) of the given kind, as the faults answer in the upstream's place. */
export function problemOf(
  status: number,
  kind: string,
  title: string,
  detail: string,
  extra: Json = {},
): ProxyResponse {
  return {
    status,
    headers: { "content-type": "application/problem+json" },
    body: JSON.stringify({ type: `urn:deployment-service:problem:${kind}`, title, status, detail, ...extra }),
  };
}

const problem = (status: number, title: string, detail: string): ProxyResponse =>
  problemOf(status, "internal", title, detail);

/** A record made up for a create the upstream refused as a duplicate (the faults that accept duplicates). */
export function madeUpDeployment(body: Json): ProxyResponse {
  const now = new Date().toISOString();
  return {
    status: 201,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...body,
      id: crypto.randomUUID(),
      tenant_id: demo.acme.productionTenantId,
      created_at: now,
      updated_at: now,
      status: "AWAITING_DATABASE",
      latest_revision_id: crypto.randomUUID(),
      active_revision_id: null,
    }),
  };
}

/** Deployment records, in lists and create answers, lack updated_at (one bug that many checks see). */
const withoutUpdatedAt: Fault = {
  id: "deployment-without-updated-at",
  level: "MUST",
  description: "Deployment records lack updated_at",
  response: (req, res) => (isDeployments(req) && ok(res) ? eachDeployment(res, (d) => delete d.updated_at) : undefined),
};

/** limit=0 is accepted and answered as limit=1. */
const limitZeroAccepted: Fault = {
  id: "limit-zero-accepted",
  level: "MUST",
  description: "limit=0 is accepted (treated as limit=1)",
  request: (req) =>
    void (isDeployments(req) && req.url.searchParams.get("limit") === "0" && req.url.searchParams.set("limit", "1")),
};

/** limit outside 1..100, or not an integer, is accepted (answered as the nearest valid limit, or the default). */
const limitUnchecked: Fault = {
  id: "limit-out-of-range-accepted",
  level: "MUST",
  description: "limit outside 1..100 (0, 101, -1, 0.5, empty, ...) is accepted (one problem listing the values)",
  problems: [1, 2],
  request: (req) => {
    const limit = req.url.searchParams.get("limit");
    if (!isDeployments(req) || limit === null) return undefined;
    const n = Number(limit);
    if (limit === "" || !Number.isInteger(n)) req.url.searchParams.delete("limit");
    else if (n < 1 || n > 100) req.url.searchParams.set("limit", String(Math.min(100, Math.max(1, n))));
    return undefined;
  },
};

/** PROV-CREATE-017: providers are keyed by name as well as provider_id, so a second provider of a name is a 409. */
function providersKeyedByName(): Fault {
  const names = new Set<string>();
  /** The organization (by its key) and the name of a provider create, or undefined for any other request. */
  const nameOf = (req: ProxyRequest) => {
    const name = (req.json as Json | undefined)?.name;
    return isProviders(req) && req.method === "POST" && typeof name === "string"
      ? `${req.headers["x-api-key"] ?? ""} ${name}`
      : undefined;
  };
  return {
    id: "providers-keyed-by-name",
    level: "SHOULD",
    description:
      "An OAuth provider whose name another provider of the organization has is refused 409, though its provider_id is new (D-38: provider_id alone is unique)",
    request: (req) => {
      const key = nameOf(req);
      return key && names.has(key)
        ? problemOf(409, "conflict", "Conflict", "An OAuth provider of that name already exists.")
        : undefined;
    },
    response: (req, res) => {
      const key = nameOf(req);
      if (key && ok(res)) names.add(key);
      return undefined;
    },
  };
}

export const faults: Fault[] = [
  {
    id: "mcp-server-url-set",
    level: "SHOULD",
    description:
      "A provider created by operation 1 answers an mcp_server_url, which only dynamic client registration sets (D-59)",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => (p.mcp_server_url = "https://mcp.example.com/sse"))
        : undefined,
  },
  {
    id: "commit-sha-for-every-source",
    level: "SHOULD",
    description: "Deployments of every source answer a repo_commit_sha, not only codehost ones (D-52)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null | undefined;
            if (revision && d.source !== "codehost") revision.repo_commit_sha = "0".repeat(40);
          })
        : undefined,
  },
  {
    id: "env-entry-name-optional",
    level: "SHOULD",
    description: "A container's env entry without name is accepted, stored under a made-up name (D-65)",
    request: (req) => {
      const spec = ((req.json as Json | undefined)?.source_config as Json | undefined)?.resource_spec as
        | Json
        | undefined;
      if (!isDeployments(req) || req.method !== "POST" || !spec) return undefined;
      let changed = false;
      for (const group of ["sidecars", "init_containers"])
        for (const container of (Array.isArray(spec[group]) ? spec[group] : []) as Json[])
          for (const entry of (Array.isArray(container?.env) ? container.env : []) as Json[])
            if (entry && typeof entry === "object" && entry.name === undefined) {
              entry.name = "env";
              changed = true;
            }
      if (changed) req.body = JSON.stringify(req.json);
      return undefined;
    },
  },
  {
    id: "leaked-client-secret",
    level: "MUST",
    description: "OAuth provider answers carry a client_secret field",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => (p.client_secret = "leaked-client-secret-value"))
        : undefined,
  },
  {
    id: "dropped-default-code-challenge-method",
    level: "MUST",
    description: "A provider created without code_challenge_method gets null instead of the default S256",
    response: (req, res) =>
      isProviders(req) && ok(res) ? eachProvider(res, (p) => (p.code_challenge_method = null)) : undefined,
  },
  {
    id: "dropped-default-uses-pkce",
    level: "MUST",
    description: "uses_pkce is left out of provider records when it has its default false",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => void (p.uses_pkce === false && delete p.uses_pkce))
        : undefined,
  },
  {
    id: "dynamic-client-true",
    level: "MUST",
    description: "Manually created providers are reported as is_dynamic_client true",
    response: (req, res) =>
      isProviders(req) && ok(res) ? eachProvider(res, (p) => (p.is_dynamic_client = true)) : undefined,
  },
  {
    id: "ignored-name-contains",
    level: "MUST",
    description: "The name_contains filter is ignored",
    request: (req) => void (isDeployments(req) && req.url.searchParams.delete("name_contains")),
  },
  providersKeyedByName(),
  {
    id: "resource-spec-containers-dropped",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A deployment's resource spec comes back without its init_containers and sidecars, as when a store keeps only the fields it has columns for",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            delete spec.init_containers;
            delete spec.sidecars;
          })
        : undefined,
  },
  {
    id: "label-keys-lowercased",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "The keys of a resource spec's labels and annotations come back in lower case (D-457: a member accepted is kept)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const field of ["labels", "annotations"])
              if (spec[field] && typeof spec[field] === "object")
                spec[field] = Object.fromEntries(
                  Object.entries(spec[field] as Json).map(([key, value]) => [key.toLowerCase(), value]),
                );
          })
        : undefined,
  },
  {
    id: "pkce-plain-stored-as-s256",
    level: "MUST",
    description:
      "A provider created with code_challenge_method plain is accepted and stored with S256, as a server that knows only one method",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => {
            if (p.code_challenge_method === "plain") p.code_challenge_method = "S256";
          })
        : undefined,
  },
  {
    id: "listener-config-dropped",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "source_config.listener_config is accepted but not stored: it comes back null, as a store with no column for it",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const config = d.source_config as Json | null;
            if (config?.listener_config) config.listener_config = null;
          })
        : undefined,
  },
  {
    id: "tarball-path-normalized",
    level: "MUST",
    description: "A source_tarball_path comes back as a path normalizer writes it: no leading ./, no doubled /",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null;
            if (typeof revision?.source_tarball_path === "string")
              revision.source_tarball_path = revision.source_tarball_path.replace(/^\.\//, "").replace(/\/{2,}/g, "/");
          })
        : undefined,
  },
  {
    id: "labels-cut-to-32",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A resource spec's labels and annotations keep their first 32 keys; the rest are dropped in silence (D-457: a member accepted is kept)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const field of ["labels", "annotations"])
              if (spec[field] && typeof spec[field] === "object")
                spec[field] = Object.fromEntries(Object.entries(spec[field] as Json).slice(0, 32));
          })
        : undefined,
  },
  {
    id: "volume-sources-emptied",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A volume's source object (configMap, secret, csi, …) comes back empty, as from a column that keeps only the source's kind",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const volume of (spec.volumes as Json[] | undefined) ?? [])
              for (const [key, value] of Object.entries(volume))
                if (value && typeof value === "object" && !Array.isArray(value)) volume[key] = {};
          })
        : undefined,
  },
  {
    id: "free-form-numbers-as-text",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "Numbers at any depth of a container's securityContext and resources come back as text, as from a store of string maps",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const field of ["init_containers", "sidecars"])
              for (const container of (spec[field] as Json[] | undefined) ?? [])
                for (const key of ["securityContext", "resources"])
                  if (container[key] !== undefined) container[key] = numbersAsText(container[key]);
          })
        : undefined,
  },
  {
    id: "cpu-stored-as-float32",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A resource spec's cpu values come back as a 32-bit float holds them (0.3 as 0.30000001192092896), as from a float4 column",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const [field, value] of Object.entries(spec))
              if (typeof value === "number" && !Number.isInteger(value)) spec[field] = Math.fround(value);
          })
        : undefined,
  },
  {
    id: "zero-resources-made-null",
    level: "MUST",
    hosting: "self_hosted",
    description: 'A resource spec field sent as 0 or "" comes back null, as from a store that writes `value || null`',
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const [field, value] of Object.entries(spec)) if (value === 0 || value === "") spec[field] = null;
          })
        : undefined,
  },
  {
    id: "empty-resource-collections-dropped",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A resource spec's empty arrays and objects (no volumes, no labels) are left out of the answer, as from a store that keeps only non-empty collections",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const [field, value] of Object.entries(spec))
              if (value && typeof value === "object" && Object.keys(value).length === 0) delete spec[field];
          })
        : undefined,
  },
  {
    id: "empty-config-strings-made-null",
    level: "MUST",
    description:
      'A source_config or source_revision_config string sent as "" (an empty build_command) comes back null, as from a store that writes `value || null`',
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            for (const part of ["source_config", "source_revision_config"]) {
              const config = d[part] as Json | null | undefined;
              if (config) for (const [field, value] of Object.entries(config)) if (value === "") config[field] = null;
            }
          })
        : undefined,
  },
  {
    id: "provider-urls-normalized",
    level: "MUST",
    description:
      "A provider's auth_url and token_url come back as a WHATWG URL parser writes them (scheme and host in lower case, no default port, no dot segments, a / for an empty path)",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => {
            for (const field of ["auth_url", "token_url"])
              if (typeof p[field] === "string" && URL.canParse(p[field])) p[field] = new URL(p[field]).href;
          })
        : undefined,
  },
  {
    id: "image-uri-qualified",
    level: "MUST",
    description:
      "An image_uri without a registry comes back qualified as a container engine reads it (nginx:1.27 as docker.io/library/nginx:1.27)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null | undefined;
            const image = revision?.image_uri;
            if (typeof image !== "string") return;
            const first = image.split("/")[0]!;
            if (image.includes("/") && (/[.:]/.test(first) || first === "localhost")) return;
            revision!.image_uri = `docker.io/${image.includes("/") ? "" : "library/"}${image}`;
          })
        : undefined,
  },
  {
    id: "graph-config-path-normalized",
    level: "MUST",
    description: "A graph_config_path starting ./ comes back without it, as a path normalizer writes it",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null | undefined;
            if (typeof revision?.graph_config_path === "string")
              revision.graph_config_path = revision.graph_config_path.replace(/^\.\//, "");
          })
        : undefined,
  },
  {
    id: "codehost-paths-normalized",
    level: "MUST",
    description:
      "A codehost deployment's graph_config_path comes back as a path normalizer writes it (./Agents//graph.json as Agents/graph.json); other sources keep theirs",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null | undefined;
            if (d.source === "codehost" && typeof revision?.graph_config_path === "string")
              revision.graph_config_path = revision.graph_config_path.replace(/^\.\//, "").replace(/\/{2,}/g, "/");
          })
        : undefined,
  },
  {
    id: "secrets-sorted-by-name",
    level: "MUST",
    description: "A deployment's secrets come back sorted by name, as from a store keyed by name",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (Array.isArray(d.secrets)) d.secrets = (d.secrets as Json[]).toSorted(byName);
          })
        : undefined,
  },
  {
    id: "image-tag-lowercased",
    level: "MUST",
    description:
      "An image_uri comes back in lower case, its case-sensitive tag too (acme/agent:1.0.0-RC1 as acme/agent:1.0.0-rc1)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const revision = d.source_revision_config as Json | null | undefined;
            if (typeof revision?.image_uri === "string") revision.image_uri = revision.image_uri.toLowerCase();
          })
        : undefined,
  },
  {
    id: "secret-references-sorted",
    level: "MUST",
    hosting: "self_hosted",
    description: "A deployment's secret_references come back sorted by name, as from a store keyed by name",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (Array.isArray(d.secret_references))
              d.secret_references = (d.secret_references as Json[]).toSorted(byName);
          })
        : undefined,
  },
  {
    id: "resource-arrays-deduplicated",
    level: "MUST",
    hosting: "self_hosted",
    description: "A resource spec array comes back with exact repeats left out, as from a store that keeps a set",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const [field, value] of Object.entries(spec))
              if (Array.isArray(value))
                spec[field] = [...new Map(value.map((item) => [JSON.stringify(item), item])).values()];
          })
        : undefined,
  },
  {
    id: "label-values-typed",
    level: "SHOULD",
    hosting: "self_hosted",
    description:
      'Label and annotation values that read as other types come back typed ("true" as true, "007" as 7), as from a YAML round trip',
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const field of ["labels", "annotations"]) {
              const values = spec[field];
              if (!values || typeof values !== "object") continue;
              for (const [key, value] of Object.entries(values as Json))
                if (value === "true" || value === "false") (values as Json)[key] = value === "true";
                else if (typeof value === "string" && /^\d+$/.test(value)) (values as Json)[key] = Number(value);
            }
          })
        : undefined,
  },
  {
    id: "resource-integers-wrapped-to-int32",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A resource spec integer beyond 32 bits is accepted and stored wrapped (4294967301 as 5), as by an int4 column with no bound in the schema",
    request: (req) => {
      const spec = ((req.json as Json | undefined)?.source_config as Json | null | undefined)?.resource_spec;
      if (req.method !== "POST" || !isDeployments(req) || !spec || typeof spec !== "object") return undefined;
      for (const [field, value] of Object.entries(spec as Json))
        if (Number.isInteger(value)) (spec as Json)[field] = (value as number) | 0;
      return undefined;
    },
  },
  {
    id: "repeated-list-parameter-last-wins",
    level: "SHOULD",
    description:
      "A list parameter given more than once keeps only its last value, as a query parsed into a plain map does, instead of joining them (D-441)",
    request: (req) => {
      if (!isDeployments(req) || req.method !== "GET") return undefined;
      for (const name of ["status", "deployment_ids", "tag_value_ids"]) {
        const given = req.url.searchParams.getAll(name);
        if (given.length > 1) req.url.searchParams.set(name, given.at(-1) ?? "");
      }
      return undefined;
    },
  },
  {
    id: "listener-never-reconciled",
    level: "SHOULD",
    hosting: "self_hosted",
    description:
      "remote_reconciled=true lists no deployment, as when the listener_id a create carries is never stored where the filter reads it (D-40)",
    response: (req, res) => {
      if (!isDeployments(req) || req.method !== "GET" || !ok(res)) return undefined;
      if (req.url.searchParams.get("remote_reconciled") !== "true") return undefined;
      return mapJson(res, (body) => ({ ...(body as Json), resources: [] }));
    },
  },
  {
    id: "short-name-filter-matches-nothing",
    level: "SHOULD",
    description:
      "A name_contains of one or two characters matches nothing, as a trigram index answers a needle it holds no trigram of (D-39)",
    response: (req, res) => {
      const needle = req.url.searchParams.get("name_contains");
      if (!isDeployments(req) || req.method !== "GET" || needle === null || [...needle].length >= 3 || !ok(res))
        return undefined;
      return mapJson(res, (body) => ({ ...(body as Json), resources: [] }));
    },
  },
  {
    id: "ignored-status-filter",
    level: "MUST",
    description: "The status filter is ignored",
    request: (req) => void (isDeployments(req) && req.url.searchParams.delete("status")),
  },
  {
    id: "ignored-deployment-ids",
    level: "MUST",
    description: "The deployment_ids filter is ignored",
    request: (req) => void (isDeployments(req) && req.url.searchParams.delete("deployment_ids")),
  },
  {
    id: "off-by-one-offset",
    level: "MUST",
    description: "The returned offset is one less than the request's offset plus the resources returned",
    response: (req, res) =>
      isDeployments(req) && req.method === "GET" && ok(res)
        ? mapJson(res, (b) => {
            const page = b as Json;
            if ((page.resources as unknown[]).length > 1) page.offset = (page.offset as number) - 1;
            return page;
          })
        : undefined,
  },
  limitZeroAccepted,
  {
    id: "wrong-default-limit",
    level: "MUST",
    description: "Without limit, 25 deployments are returned instead of 20",
    request: (req) =>
      void (
        isDeployments(req) &&
        req.method === "GET" &&
        !req.url.searchParams.has("limit") &&
        req.url.searchParams.set("limit", "25")
      ),
  },
  {
    id: "wrong-default-offset",
    level: "MUST",
    description: "Without offset, the list starts at offset 1",
    request: (req) =>
      void (
        isDeployments(req) &&
        req.method === "GET" &&
        !req.url.searchParams.has("offset") &&
        req.url.searchParams.set("offset", "1")
      ),
  },
  {
    id: "missing-tenant-id",
    level: "MUST",
    description: "Deployment records lack the required tenant_id",
    response: (req, res) =>
      isDeployments(req) && ok(res) ? eachDeployment(res, (d) => delete d.tenant_id) : undefined,
  },
  {
    id: "id-as-number",
    level: "MUST",
    description: "Repository records carry host_integration_id as a number",
    response: (req, res) =>
      isRepos(req) && ok(res)
        ? mapJson(res, (b) => (b as Json[]).map((r) => ({ ...r, host_integration_id: 12345 })))
        : undefined,
  },
  {
    id: "options-refused",
    level: "SHOULD",
    description: "OPTIONS without CORS answers 405 on every path (D-270: 204 with Allow)",
    request: (req) =>
      req.method === "OPTIONS" && req.headers.origin === undefined
        ? problem(405, "Method Not Allowed", "OPTIONS is not served here.")
        : undefined,
  },
  {
    id: "cors-any-origin",
    level: "SHOULD",
    description:
      "Every Origin is allowed: an origin outside the policy (another host, https on loopback, null) gets Access-Control-Allow-Origin (D-132)",
    response: (req, res) => {
      const origin = req.headers.origin;
      if (origin === undefined || res.headers["access-control-allow-origin"] !== undefined) return undefined;
      return {
        ...res,
        headers: {
          ...res.headers,
          "access-control-allow-origin": origin,
          "access-control-expose-headers": "Retry-After, X-Request-Id, Allow",
          vary: "Origin",
        },
      };
    },
  },
  {
    id: "cors-options-preflight",
    level: "SHOULD",
    description:
      "OPTIONS from an allowed origin is answered as a preflight without Access-Control-Request-Method too (D-132: it is none)",
    response: (req, res) => {
      if (req.method !== "OPTIONS" || (req.headers["access-control-request-method"] ?? "") !== "") return undefined;
      const origin = res.headers["access-control-allow-origin"];
      if (origin === undefined) return undefined;
      return {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          vary: "Origin",
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": "Content-Type, X-Api-Key, X-Tenant-Id, Prefer, X-Request-Id",
          "access-control-max-age": "600",
        },
        body: "",
      };
    },
  },
  {
    id: "preflight-header-not-a-token",
    level: "SHOULD",
    description:
      "A preflight lists an item that is not a token among its allowed request headers, so a browser refuses the whole preflight (D-132; RFC 9110 §5.6.2)",
    response: (_req, res) => {
      const allowed = res.headers["access-control-allow-headers"];
      if (allowed === undefined) return undefined;
      return { ...res, headers: { ...res.headers, "access-control-allow-headers": `${allowed}, Stryker was here` } };
    },
  },
  {
    id: "undeclared-parameter-null-errors",
    level: "SHOULD",
    description:
      "A list given a query parameter it does not declare is refused 422 with errors [null] instead of field errors (D-310; D-16: each item names its parameter and detail)",
    request: (req) =>
      req.method === "GET" && req.url.searchParams.has("cf_unknown_parameter")
        ? problemOf(422, "validation", "Validation failed", "The query holds a parameter it does not declare.", {
            errors: [null],
          })
        : undefined,
  },
  {
    id: "content-coding-ignored",
    level: "SHOULD",
    description: "A request body's Content-Encoding is ignored: a body labelled gzip is read as plain (D-115: 415)",
    request: (req) => void delete req.headers["content-encoding"],
  },
  {
    id: "content-coding-case-sensitive",
    level: "SHOULD",
    description:
      "Content-Encoding is matched in one letter case: a body labelled IDENTITY is refused as coded (RFC 9110 §8.4.1: coding names are case-insensitive; D-115)",
    request: (req) => {
      const coding = req.headers["content-encoding"];
      if (coding === undefined || coding === "identity" || coding.toLowerCase() !== "identity") return undefined;
      const refused = problemOf(
        415,
        "unsupported-media-type",
        "Unsupported media type",
        `The request body's Content-Encoding ${coding} is not supported.`,
      );
      return { ...refused, headers: { ...refused.headers, "accept-encoding": "identity" } };
    },
  },
  {
    id: "long-target-served",
    level: "SHOULD",
    description:
      "A request target over 8 KiB is served as any other (D-115: 414): the proxy cuts name_contains to 8 characters",
    request: (req) => {
      const value = req.url.searchParams.get("name_contains");
      if (value && value.length > 8 * 1024) req.url.searchParams.set("name_contains", value.slice(0, 8));
      return undefined;
    },
  },
  {
    id: "target-bound-inclusive",
    level: "SHOULD",
    description: "A request target of exactly 8,192 bytes is refused as too long (D-115: 414 only above 8 KiB)",
    request: (req) => {
      if (Buffer.byteLength(`${req.url.pathname}${req.url.search}`) !== 8192) return undefined;
      return problemOf(414, "uri-too-long", "URI too long", "The request target is longer than 8191 bytes.");
    },
  },
  {
    id: "validation-ancestor-noise",
    level: "SHOULD",
    description:
      "A 422's errors[] also lists each ancestor of a nested member it names, 'must match a schema in anyOf' (D-440: one item per wrong member)",
    response: (req, res) =>
      req.method === "POST" && res.status === 422
        ? mapJson(res, (b) => {
            const body = b as Json;
            if (!Array.isArray(body.errors)) return body;
            const named = new Set((body.errors as Json[]).map((e) => e.pointer));
            const noise: Json[] = [];
            for (const e of body.errors as Json[]) {
              if (typeof e.pointer !== "string") continue;
              const segments = e.pointer.split("/");
              for (let n = segments.length - 1; n > 1; n--) {
                const pointer = segments.slice(0, n).join("/");
                if (named.has(pointer)) continue;
                named.add(pointer);
                noise.push({ pointer, detail: "must match a schema in anyOf" });
              }
            }
            return { ...body, errors: [...(body.errors as Json[]), ...noise] };
          })
        : undefined,
  },
  {
    id: "unstorable-text-dropped",
    level: "SHOULD",
    description:
      "NUL characters and lone surrogates are silently removed from body strings and query values (D-111: 422 naming the field)",
    request: (req) => {
      // by code point: a lone surrogate is a code point of its own, a pair is one
      const clean = (text: string) =>
        Array.from(text)
          .filter((c) => c !== "\u0000" && !(c.length === 1 && c >= "\ud800" && c <= "\udfff"))
          .join("");
      const walk = (value: unknown): unknown =>
        typeof value === "string"
          ? clean(value)
          : Array.isArray(value)
            ? value.map(walk)
            : value && typeof value === "object"
              ? Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), walk(v)]))
              : value;
      if (req.json !== undefined) req.json = walk(req.json);
      const query = [...req.url.searchParams];
      if (query.some(([, value]) => value !== clean(value)))
        req.url.search = new URLSearchParams(query.map(([name, value]) => [name, clean(value)])).toString();
      return undefined;
    },
  },
  {
    id: "repeated-parameter-last-wins",
    level: "SHOULD",
    description: "A single-valued query parameter given twice takes its last value (D-441: 422 naming it)",
    request: (req) => {
      if (!isDeployments(req) || req.method !== "GET") return undefined;
      const lists = new Set(["status", "deployment_ids", "tag_value_ids"]);
      for (const name of new Set(req.url.searchParams.keys())) {
        const values = req.url.searchParams.getAll(name);
        if (!lists.has(name) && values.length > 1) req.url.searchParams.set(name, values.at(-1)!);
      }
      return undefined;
    },
  },
  {
    id: "body-parsed-lossily",
    level: "SHOULD",
    description:
      "A create body is parsed and its value stored, so a number a float does not hold as written becomes another (1e400 null, 9007199254740993 ...992) instead of a 422 naming it (D-281)",
    request: (req) => {
      if (req.method === "POST" && req.json !== undefined) req.body = JSON.stringify(req.json);
      return undefined;
    },
  },
  {
    id: "chunked-body-unbounded",
    level: "SHOULD",
    description:
      "The 1 MiB body bound is read from Content-Length alone, so a body sent chunked with none is parsed however long it is (D-30)",
    request: (req) => {
      // the server then answers the body as it would without the bound: here, with its padding cut short
      const json = req.json as Record<string, unknown> | undefined;
      if (req.headers["transfer-encoding"]?.includes("chunked") && typeof json?.padding === "string")
        json.padding = "x";
      return undefined;
    },
  },
  {
    id: "parser-refusals-bare",
    level: "SHOULD",
    description:
      "A request the HTTP parser refuses (two Content-Lengths, a space before a colon) gets Node's bare 400 with no body, not a problem detail (D-16, D-373)",
    bareParserRefusals: true,
  },
  {
    id: "declared-body-awaited",
    level: "SHOULD",
    description:
      "A body declared past 1 MiB is refused only once it has all arrived, so a client that declares 2 MiB and stalls waits with no answer (D-30, D-443)",
    awaitsDeclaredBody: true,
  },
  {
    id: "body-decoded-leniently",
    level: "SHOULD",
    description:
      "A body's bytes are decoded as UTF-8 with U+FFFD in place of any that are not, so a name holding byte 0xFF is stored instead of refused 400 (D-281)",
    request: (req) => {
      if (!isUtf8(req.rawBody)) req.rawBody = Buffer.from(req.body);
      return undefined;
    },
  },
  {
    id: "duplicate-member-last-wins",
    level: "SHOULD",
    description:
      "A provider create whose name member is given twice is parsed and stored with the last one, instead of a 422 naming /name (D-281: a parse keeps one of two members)",
    request: (req) => {
      const names = req.body.match(/"name"\s*:/g) ?? [];
      if (req.method === "POST" && req.url.pathname === operation("createOAuthProvider").path && names.length > 1)
        req.body = JSON.stringify(req.json);
      return undefined;
    },
  },
  {
    id: "json-media-type-exact",
    level: "SHOULD",
    description:
      "A create body is taken only when labelled application/json, with no parameter but an unquoted charset=utf-8 (D-442: +json types, utf8, a quoted charset and other parameters are taken too)",
    request: (req) => {
      const contentType = req.headers["content-type"];
      if (req.method !== "POST" || contentType === undefined) return undefined;
      const [type, ...parameters] = contentType
        .toLowerCase()
        .split(";")
        .map((part) => part.trim());
      // a type that is no JSON is the upstream's to refuse (after authentication, D-13)
      return !/^application\/([a-z0-9.+-]+\+)?json$/.test(type ?? "") ||
        (type === "application/json" && parameters.every((p) => p === "charset=utf-8"))
        ? undefined
        : problemOf(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            `Send the request body as application/json, not ${contentType}.`,
          );
    },
  },
  {
    id: "integration-of-either-kind",
    level: "SHOULD",
    description:
      "Each repository listing answers for an integration of either kind (D-10: the other kind's id is 404 there)",
    request: (req) => {
      const match = matchPath("GET", req.url.pathname);
      if (match.kind !== "operation" || !repositoryOperations.has(match.operation.id)) return undefined;
      const id = match.pathParameters.integration_id ?? "";
      // the operation of the id's own kind answers instead of the one asked
      const own =
        id === demo.acme.managedIntegrationId
          ? "listManagedCodehostRepositories"
          : id === demo.acme.plainIntegrationId
            ? "listCodehostRepositories"
            : match.operation.id;
      req.url.pathname = operation(own).path.replace("{integration_id}", id);
      return undefined;
    },
  },
  {
    id: "unknown-status-value",
    level: "MUST",
    description: "Deployments report status RUNNING, which is not in the enum",
    response: (req, res) =>
      isDeployments(req) && ok(res) ? eachDeployment(res, (d) => (d.status = "RUNNING")) : undefined,
  },
  {
    id: "server-error-on-missing-secrets",
    level: "MUST",
    description: "A deployment body without secrets answers 500 instead of a 4xx",
    request: (req) =>
      isDeployments(req) &&
      req.method === "POST" &&
      req.json &&
      typeof req.json === "object" &&
      !("secrets" in (req.json as Json))
        ? problem(500, "Internal error", "secrets is not iterable")
        : undefined,
  },
  {
    id: "unavailable-source-accepted",
    level: "MUST",
    description:
      "A cloud service accepts external_container (stored as internal_template, reported as external_container)",
    request: (req) => {
      if (
        isDeployments(req) &&
        req.method === "POST" &&
        (req.json as Json | undefined)?.source === "external_container"
      ) {
        const body = req.json as Json;
        body.source = "internal_template";
        body.source_revision_config = {};
        req.headers["x-fault-source"] = "external_container";
      }
      return undefined;
    },
    response: (req, res) =>
      req.headers["x-fault-source"] && ok(res)
        ? eachDeployment(res, (d) => (d.source = "external_container"))
        : undefined,
  },
  {
    id: "rule-4-not-copied",
    level: "MUST",
    description: "A codehost deployment reports a repo_url other than the repository record's url",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            const c = d.source_config as Json;
            if (typeof c?.repo_url === "string") c.repo_url = `${c.repo_url}.git`;
          })
        : undefined,
  },
  {
    id: "create-deployment-200",
    level: "SHOULD",
    description: "Creating a deployment answers 200 instead of 201",
    response: (req, res) =>
      isDeployments(req) && req.method === "POST" && res.status === 201 ? { ...res, status: 200 } : undefined,
  },
  {
    id: "cross-tenant-leak",
    level: "SHOULD",
    description: "The deployment list of one tenant also holds another organization's deployments",
    async response(req, res, upstream) {
      if (!isDeployments(req) || req.method !== "GET" || !ok(res) || req.headers["x-api-key"] === demo.globex.apiKey)
        return undefined;
      const other = await upstream("GET", `${deploymentsPath}${req.url.search}`, {
        "x-api-key": demo.globex.apiKey,
        accept: "application/json",
      });
      if (!ok(other)) return undefined;
      return mapJson(res, (b) => {
        const page = b as Json;
        const theirs = (JSON.parse(other.body) as Json).resources as Json[];
        page.resources = [...(page.resources as Json[]), ...theirs.slice(0, 3)];
        return page;
      });
    },
  },
  {
    id: "duplicate-accepted",
    level: "SHOULD",
    description: "A duplicate deployment name is accepted: the 409 becomes a 201 with a made-up record",
    response: (req, res) => {
      if (!isDeployments(req) || req.method !== "POST" || res.status !== 409) return undefined;
      return madeUpDeployment(req.json as Json);
    },
  },
  {
    id: "read-only-status-honoured",
    level: "SHOULD",
    description: "A status sent on create is taken over into the record",
    response: (req, res) => {
      const sent = (req.json as Json | undefined)?.status;
      return isDeployments(req) && req.method === "POST" && ok(res) && typeof sent === "string"
        ? eachDeployment(res, (d) => (d.status = sent))
        : undefined;
    },
  },
  {
    id: "unknown-field-echoed",
    level: "SHOULD",
    description: "Unknown top-level fields of a create request are echoed in the record",
    response: (req, res) => {
      if (!isDeployments(req) || req.method !== "POST" || !ok(res)) return undefined;
      const create = operation("createDeployment");
      const known = new Set([
        ...Object.keys(create.requestBody?.schema.properties ?? {}),
        ...Object.keys(create.responses[String(create.successStatus)]?.schema.properties ?? {}),
      ]);
      const extra = Object.fromEntries(Object.entries(req.json as Json).filter(([k]) => !known.has(k)));
      return mapJson(res, (b) => ({ ...(b as Json), ...extra }));
    },
  },
  {
    id: "oldest-first-deployments",
    level: "SHOULD",
    description: "Deployments are listed oldest first instead of newest first",
    response: (req, res) =>
      isDeployments(req) && req.method === "GET" && ok(res)
        ? mapJson(res, (b) => ({ ...(b as Json), resources: [...((b as Json).resources as Json[])].reverse() }))
        : undefined,
  },
  {
    id: "newest-first-providers",
    level: "SHOULD",
    description: "OAuth providers are listed newest first instead of oldest first",
    response: (req, res) =>
      isProviders(req) && req.method === "GET" && ok(res)
        ? mapJson(res, (b) => [...(b as Json[])].reverse())
        : undefined,
  },
  {
    id: "every-key-is-the-main-one",
    level: "SHOULD",
    description:
      "Every request is served as the main organization's key, whatever key it carries or none (the preflight must not call --other-api-key wrong, D-383)",
    request: (req) => {
      req.headers["x-api-key"] = demo.acme.apiKey;
      delete req.headers["x-tenant-id"];
      return undefined;
    },
  },
  {
    id: "api-key-compared-by-prefix",
    level: "SHOULD",
    description:
      "An API key is compared by its first 16 characters, so a key one character longer, shorter or changed at its end is the organization's (D-13)",
    request: (req) => {
      const given = req.headers["x-api-key"];
      const key = [demo.acme.apiKey, demo.globex.apiKey].find((k) => given?.slice(0, 16) === k.slice(0, 16));
      if (key) req.headers["x-api-key"] = key;
      return undefined;
    },
  },
  {
    id: "missing-key-accepted",
    level: "SHOULD",
    description: "A request without a valid API key is answered 200 instead of 401",
    response: (req, res) => {
      if (res.status !== 401 || req.method !== "GET") return undefined;
      const body = isDeployments(req) ? { resources: [], offset: 0 } : [];
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    },
  },
  {
    id: "json-with-byte-order-mark",
    level: "MUST",
    description:
      "Every JSON answer starts with a byte order mark (EF BB BF), as from a serializer writing UTF-8 with a BOM",
    response: (_req, res) =>
      res.body.startsWith("{") || res.body.startsWith("[") ? { ...res, body: `\ufeff${res.body}` } : undefined,
  },
  {
    id: "text-plain-errors",
    level: "SHOULD",
    description: "Error answers are text/plain instead of application/problem+json",
    response: (_req, res) =>
      res.status >= 400
        ? { status: res.status, headers: { "content-type": "text/plain; charset=utf-8" }, body: `error ${res.status}` }
        : undefined,
  },
  {
    id: "past-end-offset-reset",
    level: "SHOULD",
    description: "A request past the end returns offset 0 instead of the request's offset",
    response: (req, res) =>
      isDeployments(req) && req.method === "GET" && ok(res)
        ? mapJson(res, (b) => {
            const page = b as Json;
            if ((page.resources as unknown[]).length === 0) page.offset = 0;
            return page;
          })
        : undefined,
  },
  {
    id: "case-sensitive-name-contains",
    level: "SHOULD",
    description: "name_contains matches case-sensitively",
    response: (req, res) => {
      const needle = req.url.searchParams.get("name_contains");
      if (!isDeployments(req) || !needle || !ok(res)) return undefined;
      return mapJson(res, (b) => {
        const page = b as Json;
        const kept = (page.resources as Json[]).filter((d) => String(d.name).includes(needle));
        return { resources: kept, offset: Number(req.url.searchParams.get("offset") ?? 0) + kept.length };
      });
    },
  },
  {
    id: "validation-400",
    level: "SHOULD",
    description: "Schema violations answer 400 instead of 422",
    response: (_req, res) =>
      res.status === 422 ? mapJson({ ...res, status: 400 }, (b) => ({ ...(b as Json), status: 400 })) : undefined,
  },
  {
    id: "secret-values-unmasked",
    level: "SHOULD",
    description: "Deployment secret values are returned as sent",
    response: (req, res) =>
      isDeployments(req) && req.method === "POST" && ok(res)
        ? mapJson(res, (b) => ({ ...(b as Json), secrets: (req.json as Json).secrets }))
        : undefined,
  },
  {
    id: "method-not-allowed-without-allow",
    level: "SHOULD",
    description: "A 405 lacks the Allow header",
    response: (_req, res) => {
      if (res.status !== 405) return undefined;
      const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== "allow"));
      return { ...res, headers };
    },
  },
  {
    id: "never-ready",
    level: "SHOULD",
    description: "Deployments never leave AWAITING_DATABASE (READY is reported as AWAITING_DATABASE)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (d.status === "READY") {
              d.status = "AWAITING_DATABASE";
              d.active_revision_id = null;
            }
          })
        : undefined,
  },
  { ...withoutUpdatedAt, problems: [1, 2] },
  limitUnchecked,
  {
    id: "no-updated-at-and-limit-out-of-range",
    level: "MUST",
    description:
      "Two bugs at once: deployment records lack updated_at, and limit outside 1..100 is accepted (at most four problems)",
    problems: [2, 4],
    request: (req) => limitUnchecked.request?.(req),
    response: (req, res, upstream) => withoutUpdatedAt.response?.(req, res, upstream),
  },
  {
    id: "no-updated-at-and-limit-zero",
    level: "MUST",
    description: "Two bugs at once: deployment records lack updated_at, and limit=0 is accepted (two problems)",
    request: (req) => limitZeroAccepted.request?.(req),
    response: (req, res, upstream) => withoutUpdatedAt.response?.(req, res, upstream),
  },
  {
    id: "json-as-text-plain",
    level: "MUST",
    description: "Every JSON answer is sent with Content-Type text/plain (the server is judged, not refused as setup)",
    response: (_req, res) =>
      /json/i.test(res.headers["content-type"] ?? "")
        ? { ...res, headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" } }
        : undefined,
  },
  {
    id: "container-env-sorted",
    level: "MUST",
    hosting: "self_hosted",
    description: "A container's env entries come back sorted by name, as from a store that keeps them as a map",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachResourceSpec(res, (spec) => {
            for (const key of ["init_containers", "sidecars"])
              for (const container of (spec[key] as Json[] | undefined) ?? [])
                if (Array.isArray(container.env)) container.env = (container.env as Json[]).toSorted(byName);
          })
        : undefined,
  },
  {
    id: "false-config-members-dropped",
    level: "MUST",
    description: "Members of source_config whose value is false (build_on_push, readOnly) are left out of every record",
    response: (req, res) =>
      isDeployments(req) && ok(res) ? eachDeployment(res, (d) => withoutFalse(d.source_config)) : undefined,
  },
  {
    id: "secret-names-upper-cased",
    level: "MUST",
    description: "Secret names come back in upper case, as environment variable names",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (Array.isArray(d.secrets))
              d.secrets = (d.secrets as Json[]).map((secret) => ({
                ...secret,
                name: String(secret.name).toUpperCase(),
              }));
          })
        : undefined,
  },
  {
    id: "repository-listed-twice",
    level: "MUST",
    description: "A repository listing gives its last repository twice, as a page boundary of the code host read twice",
    response: (req, res) =>
      isRepos(req) && ok(res)
        ? mapJson(res, (b) => (Array.isArray(b) && b.length > 0 ? [...b, b.at(-1)] : b))
        : undefined,
  },
  {
    id: "offset-counts-pages",
    level: "MUST",
    description: "offset counts pages of limit records, and the returned offset is the next page's number",
    request: (req) => {
      if (!isDeployments(req) || req.method !== "GET") return undefined;
      const offset = Number(req.url.searchParams.get("offset") ?? "0");
      const limit = Number(req.url.searchParams.get("limit") ?? "20");
      if (Number.isSafeInteger(offset) && offset > 0 && Number.isInteger(limit) && limit > 0)
        req.url.searchParams.set("offset", String(offset * limit));
      return undefined;
    },
    response: (req, res) => {
      if (!isDeployments(req) || req.method !== "GET" || !ok(res)) return undefined;
      const limit = Number(req.url.searchParams.get("limit") ?? "20");
      const page = Math.floor(Number(req.url.searchParams.get("offset") ?? "0") / limit);
      return mapJson(res, (b) => {
        const body = b as Json;
        body.offset = (body.resources as Json[]).length > 0 ? page + 1 : page;
        return body;
      });
    },
  },
  {
    id: "lists-publicly-cacheable",
    level: "SHOULD",
    description: "List answers say Cache-Control: public, max-age=300, with no Vary naming the key",
    response: (req, res) =>
      req.method === "GET" && ok(res)
        ? { ...res, headers: { ...res.headers, "cache-control": "public, max-age=300" } }
        : undefined,
  },
  {
    id: "empty-list-204",
    level: "MUST",
    description: "A list with nothing in it answers 204 No Content, with no body",
    response: (req, res) => {
      if (req.method !== "GET" || !ok(res)) return undefined;
      const body = JSON.parse(res.body) as unknown;
      const items = Array.isArray(body) ? body : (body as Json).resources;
      return Array.isArray(items) && items.length === 0 ? { status: 204, headers: {}, body: "" } : undefined;
    },
  },
];
