/** Faults on the inner side of the deployment bounds and on the other side of the provider_id scope: each refuses, cuts or bends a value a bound or scope allows. */

import { maxStoredConfigBytes, storedBytes } from "../../conformance/model/stored-bytes.js";
import { demo, demoFixture } from "../../contract/index.js";
import { deploymentsPath, isProviders, type Json, mapJson, ok, problemOf } from "./catalog.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

const isCreate = (r: ProxyRequest) => r.url.pathname === deploymentsPath && r.method === "POST";
const isList = (r: ProxyRequest) => r.url.pathname === deploymentsPath && r.method === "GET";
const isProviderCreate = (r: ProxyRequest) => isProviders(r) && r.method === "POST";

/** A validation problem naming a body field or a query parameter, as the reference server words it. */
function refusal(status: 400 | 422, where: { pointer: string } | { parameter: string }): ProxyResponse {
  const kind = status === 400 ? "source-rule" : "validation";
  return {
    status,
    headers: { "content-type": "application/problem+json" },
    body: JSON.stringify({
      type: `urn:deployment-service:problem:${kind}`,
      title: status === 400 ? "Source configuration error" : "Validation failed",
      status,
      detail: "The request breaks a rule of the service.",
      errors: [{ ...where, detail: "not accepted" }],
    }),
  };
}

/** The object at `key` of a create body, when there is one. */
function part(req: ProxyRequest, key: string): Json | undefined {
  const body = req.json as Json | undefined;
  const value = body?.[key];
  return isCreate(req) && value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** Cuts a string field of a create body's part to `max` characters. */
function cut(key: string, field: string, max: number): Fault["request"] {
  return (req) => {
    const config = part(req, key);
    if (config && typeof config[field] === "string") config[field] = (config[field] as string).slice(0, max);
    return undefined;
  };
}

/** The secrets of a create body. */
const secretsOf = (req: ProxyRequest) => {
  const secrets = (req.json as Json | undefined)?.secrets;
  return isCreate(req) && Array.isArray(secrets) ? secrets : undefined;
};

/** Every repository url of the demo data, exactly as its records spell it. */
const demoRepositoryUrls = new Set(demoFixture.integrations.flatMap((i) => i.repositories.map((r) => r.url)));

/** The provider_ids created so far, each with the key that created it. */
function providerIdAcrossOrganizations(): Fault {
  const owners = new Map<string, string>();
  return {
    id: "provider-id-unique-across-organizations",
    level: "SHOULD",
    description: "A provider_id used by one organization is refused with 409 to every other organization (D-38)",
    request: (req) => {
      const id = (req.json as Json | undefined)?.provider_id;
      const key = req.headers["x-api-key"] ?? "";
      if (!isProviderCreate(req) || typeof id !== "string") return undefined;
      const owner = owners.get(id);
      if (owner !== undefined && owner !== key)
        return problemOf(409, "conflict", "Conflict", `provider_id ${id} is already used`);
      owners.set(id, key);
      return undefined;
    },
  };
}

export function edgeFaults(): Fault[] {
  return [
    {
      id: "graph-config-path-cut-at-255",
      level: "SHOULD",
      description: "graph_config_path is stored cut at 255 characters (the bound is 1,024)",
      request: cut("source_revision_config", "graph_config_path", 255),
    },
    {
      id: "image-uri-over-bound-truncated",
      level: "SHOULD",
      description: "An image_uri beyond 2,048 characters is cut to 2,048 and accepted instead of refused",
      request: cut("source_revision_config", "image_uri", 2048),
    },
    {
      id: "secrets-capped-at-50",
      level: "SHOULD",
      description: "More than 50 secrets are refused with 422 (the bound is 100)",
      request: (req) => ((secretsOf(req)?.length ?? 0) > 50 ? refusal(422, { pointer: "/secrets" }) : undefined),
    },
    {
      id: "secrets-beyond-100-dropped",
      level: "SHOULD",
      description: "Secrets beyond the 100th are dropped and the create accepted instead of refused",
      request: (req) => {
        const secrets = secretsOf(req);
        if (secrets && secrets.length > 100) secrets.length = 100;
        return undefined;
      },
    },
    {
      id: "deployment-ids-capped-at-50",
      level: "SHOULD",
      description: "More than 50 ids in deployment_ids are refused with 422 (the bound is 100)",
      request: (req) =>
        isList(req) && (req.url.searchParams.get("deployment_ids")?.split(",").length ?? 0) > 50
          ? refusal(422, { parameter: "deployment_ids" })
          : undefined,
    },
    {
      id: "name-contains-over-255-truncated",
      level: "SHOULD",
      description: "A name_contains beyond 255 characters is cut to 255 and accepted instead of refused",
      request: (req) => {
        const value = req.url.searchParams.get("name_contains");
        if (isList(req) && value && value.length > 255) req.url.searchParams.set("name_contains", value.slice(0, 255));
        return undefined;
      },
    },
    {
      id: "explicit-null-install-command-refused",
      level: "MUST",
      description: "source_config.install_command sent as explicit null is refused with 400 (absent is accepted)",
      request: (req) =>
        part(req, "source_config")?.install_command === null
          ? refusal(400, { pointer: "/source_config/install_command" })
          : undefined,
    },
    {
      id: "explicit-null-resource-spec-refused",
      level: "MUST",
      hosting: "self_hosted",
      description:
        "source_config.resource_spec sent as explicit null is refused with 422, as an object schema without null refuses it (absent is accepted)",
      request: (req) =>
        part(req, "source_config")?.resource_spec === null
          ? refusal(422, { pointer: "/source_config/resource_spec" })
          : undefined,
    },
    {
      id: "null-install-command-echoed-empty",
      level: "SHOULD",
      description: 'source_config.install_command sent as null comes back as "" in the create answer',
      response: (req, res) =>
        part(req, "source_config")?.install_command === null && ok(res)
          ? mapJson(res, (b) => {
              const config = (b as Json).source_config as Json | undefined;
              if (config) config.install_command = "";
              return b;
            })
          : undefined,
    },
    {
      id: "deployment-name-lowercased",
      level: "SHOULD",
      description: "A deployment name with capital letters is stored in lower case",
      request: (req) => {
        const body = req.json as Json | undefined;
        if (isCreate(req) && typeof body?.name === "string") body.name = body.name.toLowerCase();
        return undefined;
      },
    },
    {
      id: "deployment-ids-case-sensitive",
      level: "SHOULD",
      description: "An id in deployment_ids spelled in upper case matches nothing (ids compared as strings)",
      request: (req) => {
        const ids = isList(req) ? req.url.searchParams.get("deployment_ids") : null;
        if (ids && /[A-F]/.test(ids))
          req.url.searchParams.set(
            "deployment_ids",
            ids
              .split(",")
              .map((id) => (/[A-F]/.test(id) ? "00000000-0000-4000-8000-000000000000" : id))
              .join(","),
          );
        return undefined;
      },
    },
    {
      id: "blank-forbidden-field-ignored",
      level: "SHOULD",
      description: 'A field forbidden for the source sent as "" is read as absent and the create accepted (D-48)',
      request: (req) => {
        for (const key of ["source_config", "source_revision_config"]) {
          const config = part(req, key);
          for (const [field, value] of Object.entries(config ?? {})) if (value === "") delete config![field];
        }
        return undefined;
      },
    },
    {
      id: "optional-build-command-dropped",
      level: "SHOULD",
      description:
        "source_config.build_command of an internal_source deployment is accepted but not stored (it comes back null)",
      request: (req) => {
        const config =
          (req.json as Json | undefined)?.source === "internal_source" ? part(req, "source_config") : undefined;
        if (config && "build_command" in config) delete config.build_command;
        return undefined;
      },
    },
    {
      id: "repo-url-compared-exactly",
      level: "SHOULD",
      description:
        "A codehost repo_url is refused unless spelled exactly as the repository record (a trailing slash, .git or an upper-case host is 400)",
      request: (req) => {
        const url =
          (req.json as Json | undefined)?.source === "codehost" ? part(req, "source_config")?.repo_url : undefined;
        return typeof url === "string" && !demoRepositoryUrls.has(url)
          ? refusal(400, { pointer: "/source_config/repo_url" })
          : undefined;
      },
    },
    {
      id: "repo-url-one-trailing-slash",
      level: "SHOULD",
      description:
        "A codehost repo_url with more than one trailing slash, or with .git before a trailing slash, is refused with 400 (only one slash or the bare .git suffix is left out)",
      request: (req) => {
        const url =
          (req.json as Json | undefined)?.source === "codehost" ? part(req, "source_config")?.repo_url : undefined;
        return typeof url === "string" && /(\/\/|\.git\/)$/.test(url)
          ? refusal(400, { pointer: "/source_config/repo_url" })
          : undefined;
      },
    },
    {
      id: "stored-size-bound-exclusive",
      level: "SHOULD",
      description:
        "source_config, source_revision_config and secret_references holding exactly 65,536 bytes together are refused with 422 (the bound taken as exclusive)",
      request: (req) => {
        const body = req.json as Json | undefined;
        if (!isCreate(req) || !body) return undefined;
        return storedBytes(body) === maxStoredConfigBytes ? refusal(422, { pointer: "/source_config" }) : undefined;
      },
    },
    {
      id: "cpu-limit-defaults-to-request",
      level: "SHOULD",
      hosting: "self_hosted",
      description:
        "A cpu limit left unset in a resource spec is stored as the request itself, not twice the request (D-04)",
      request: (req) => {
        const config = part(req, "source_config");
        const spec = config?.resource_spec;
        if (!spec || typeof spec !== "object" || Array.isArray(spec)) return undefined;
        const fields = spec as Json;
        for (const prefix of ["", "queue_", "orchestrator_", "executor_", "cache_", "db_"])
          if (typeof fields[`${prefix}cpu`] === "number" && fields[`${prefix}cpu_limit`] == null)
            fields[`${prefix}cpu_limit`] = fields[`${prefix}cpu`];
        return undefined;
      },
    },
    {
      id: "plain-http-custom-url-refused",
      level: "SHOULD",
      hosting: "self_hosted",
      description: "A custom_url with the plain http scheme is refused with 400 (only https taken)",
      request: (req) => {
        const url = part(req, "source_config")?.custom_url;
        return typeof url === "string" && url.toLowerCase().startsWith("http:")
          ? refusal(400, { pointer: "/source_config/custom_url" })
          : undefined;
      },
    },
    {
      id: "remote-reconciled-alone-ignored",
      level: "SHOULD",
      description:
        "A list whose only filter is remote_reconciled is answered as an unfiltered list (the filter dropped when nothing else filters)",
      request: (req) => {
        if (!isList(req)) return undefined;
        const names = [...req.url.searchParams.keys()].filter((n) => n !== "limit" && n !== "offset");
        const value = req.url.searchParams.get("remote_reconciled");
        // a well-formed value only: a malformed one still reaches the server's 422
        if (names.length === 1 && (value === "true" || value === "false"))
          req.url.searchParams.delete("remote_reconciled");
        return undefined;
      },
    },
    providerIdAcrossOrganizations(),
    {
      id: "provider-id-unique-per-tenant",
      level: "SHOULD",
      description:
        "A provider_id of the organization is taken again in its second tenant (providers unique per tenant, not organization)",
      response: (req, res) => {
        const tenant = req.headers["x-tenant-id"]?.toLowerCase();
        if (!isProviderCreate(req) || res.status !== 409 || !tenant || tenant === demo.acme.productionTenantId)
          return undefined;
        const { client_secret: _, ...record } = req.json as Json;
        return {
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            uses_pkce: false,
            code_challenge_method: "S256",
            token_endpoint_auth_method: "client_secret_post",
            provider_type: null,
            mcp_server_url: null,
            is_dynamic_client: false,
            ...record,
            id: crypto.randomUUID(),
            organization_id: crypto.randomUUID(),
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          }),
        };
      },
    },
    {
      id: "offset-overflow-500",
      level: "MUST",
      description:
        "An offset beyond 32 bits (2147483648) is answered 500, as by a store that binds it to an int4 parameter",
      request: (req) =>
        isList(req) && Number(req.url.searchParams.get("offset") ?? 0) >= 2 ** 31
          ? problemOf(500, "internal", "Internal Server Error", "integer out of range")
          : undefined,
    },
    {
      id: "integration-id-case-sensitive",
      level: "SHOULD",
      description:
        "An integration id in a repository path written in upper case is answered 404, as by a lookup of the path's text (D-190)",
      request: (req) =>
        req.method === "GET" && req.url.pathname.endsWith("/repos") && /[A-F]/.test(req.url.pathname)
          ? problemOf(404, "not-found", "Not Found", "No integration has this id.")
          : undefined,
    },
  ];
}
