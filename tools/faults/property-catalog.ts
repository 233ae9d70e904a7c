/**
 * Faults of the kinds no example-based check looks for: a known rule broken on one path, in one answer, for one class
 * of characters or for one adversarial filter value. The PROP-* properties (conformance/checks/properties-*.ts) catch them.
 */
import { demo } from "../../contract/index.js";
import { eachDeployment, eachProvider, isDeployments, isProviders, type Json, ok, problemOf } from "./catalog.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

const isList = (r: ProxyRequest) => isDeployments(r) && r.method === "GET";
const isProviderCreate = (r: ProxyRequest) => isProviders(r) && r.method === "POST";
const noKey = (r: ProxyRequest) => (r.headers["x-api-key"] ?? "") === "";
/** Lets a request without a key through as if it carried the demo organization's key. */
function actAsDemo(r: ProxyRequest): true {
  r.headers["x-api-key"] = demo.acme.apiKey;
  return true;
}
/** Whether a string holds a character above `max`. */
const beyond = (value: string, max: number) => [...value].some((c) => c.codePointAt(0)! > max);

/** Applies `f` to each string field of a provider create body named in `fields`. */
function providerFields(req: ProxyRequest, fields: readonly string[], f: (value: string) => string): void {
  const body = req.json as Json | undefined;
  if (!isProviderCreate(req) || !body) return;
  for (const field of fields) if (typeof body[field] === "string") body[field] = f(body[field] as string);
}

/** Applies `f` to the object at `key` of every deployment of a list answer. */
function listedPart(req: ProxyRequest, res: ProxyResponse, key: string, f: (part: Json) => void) {
  if (!isList(req) || !ok(res)) return undefined;
  return eachDeployment(res, (d) => {
    const part = d[key];
    if (part !== null && typeof part === "object") f(part as Json);
  });
}

/** The value percent-decoded once more, when that is possible. */
function decodedAgain(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Ids the upstream answered creates with, so a prefix of one can be read as the whole id. */
function deploymentIdsByPrefix(): Fault {
  const ids: string[] = [];
  return {
    id: "deployment-ids-prefix-match",
    level: "SHOULD",
    description:
      "An entry of deployment_ids that is a prefix (8 hex digits or more) of a deployment id matches it instead of a 422",
    request: (req) => {
      const value = req.url.searchParams.get("deployment_ids");
      if (!isList(req) || value === null) return undefined;
      const items = value.split(",").map((item) => {
        if (!/^[0-9a-f-]{8,35}$/i.test(item)) return item;
        return ids.find((id) => id.startsWith(item.toLowerCase())) ?? item;
      });
      req.url.searchParams.set("deployment_ids", items.join(","));
      return undefined;
    },
    response: (req, res) => {
      if (isDeployments(req) && req.method === "POST" && ok(res)) ids.push(String((JSON.parse(res.body) as Json).id));
      return undefined;
    },
  };
}

export const propertyFaults: Fault[] = [
  {
    id: "head-skips-auth",
    level: "SHOULD",
    description: "A HEAD request without X-Api-Key is answered 200 as the demo organization (GET still answers 401)",
    request: (req) => void (req.method === "HEAD" && noKey(req) && actAsDemo(req)),
  },
  {
    id: "auth-skipped-with-name-contains",
    level: "SHOULD",
    description: "A deployment list with name_contains and no X-Api-Key is answered as the demo organization",
    request: (req) => void (isList(req) && noKey(req) && req.url.searchParams.has("name_contains") && actAsDemo(req)),
  },
  {
    id: "text-label-for-wildcard-accept",
    level: "MUST",
    description: "A success answer to a request whose Accept is not exactly application/json is labelled text/plain",
    response: (req, res) =>
      ok(res) && (req.headers.accept ?? "") !== "application/json"
        ? { ...res, headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" } }
        : undefined,
  },
  {
    id: "problem-label-lost-for-wildcard-accept",
    level: "SHOULD",
    description:
      "An error answer to a request whose Accept is not exactly application/json is labelled application/json",
    response: (req, res) =>
      res.status >= 400 && (req.headers.accept ?? "") !== "application/json"
        ? { ...res, headers: { ...res.headers, "content-type": "application/json" } }
        : undefined,
  },
  {
    id: "default-limit-50-with-deployment-type",
    level: "MUST",
    description: "A deployment list with a deployment_type filter and no limit returns up to 50 deployments",
    request: (req) =>
      void (
        isList(req) &&
        req.url.searchParams.has("deployment_type") &&
        !req.url.searchParams.has("limit") &&
        req.url.searchParams.set("limit", "50")
      ),
  },
  {
    id: "created-at-shifted-under-image-version",
    level: "MUST",
    description: "Deployments listed under an image_version filter carry a created_at one second later than elsewhere",
    response: (req, res) =>
      isList(req) && ok(res) && req.url.searchParams.has("image_version")
        ? eachDeployment(res, (d) => {
            d.created_at = new Date(Date.parse(String(d.created_at)) + 1000).toISOString();
          })
        : undefined,
  },
  {
    id: "provider-updated-at-is-now",
    level: "SHOULD",
    description: "Listed OAuth providers carry updated_at set to the time of the list request",
    response: (req, res) =>
      isProviders(req) && req.method === "GET" && ok(res)
        ? eachProvider(res, (p) => (p.updated_at = new Date().toISOString()))
        : undefined,
  },
  {
    id: "provider-text-nfc-normalised",
    level: "MUST",
    description:
      "OAuth provider name, client_id and provider_id are stored NFC-normalised (e + U+0301 comes back as é)",
    request: (req) => void providerFields(req, ["name", "client_id", "provider_id"], (v) => v.normalize("NFC")),
  },
  {
    id: "provider-client-id-trimmed",
    level: "MUST",
    description: "An OAuth provider client_id is stored with the whitespace at its edges trimmed",
    request: (req) => void providerFields(req, ["client_id"], (v) => v.trim()),
  },
  {
    id: "cluster-text-nfc-normalised",
    level: "MUST",
    hosting: "self_hosted",
    description:
      "A self-hosted deployment's listener namespace, a sidecar's args and env values are stored NFC-normalised and trimmed",
    request: (req) => {
      const body = req.json as Json | undefined;
      const config = body?.source_config as Json | undefined;
      if (!isDeployments(req) || req.method !== "POST" || !config) return undefined;
      const text = (value: unknown) => (typeof value === "string" ? value.normalize("NFC").trim() : value);
      const listener = config.listener_config as Json | undefined;
      if (listener) listener.cluster_namespace = text(listener.cluster_namespace);
      const spec = config.resource_spec as Json | undefined;
      for (const sidecar of (spec?.sidecars as Json[] | undefined) ?? []) {
        if (Array.isArray(sidecar.args)) sidecar.args = sidecar.args.map(text);
        for (const env of (sidecar.env as Json[] | undefined) ?? []) env.value = text(env.value);
      }
      return undefined;
    },
  },
  {
    id: "provider-text-beyond-latin1-refused",
    level: "SHOULD",
    description: "An OAuth provider body with a character beyond U+00FF in name or client_id is refused with 422",
    request: (req) => {
      const body = req.json as Json | undefined;
      const field = ["name", "client_id"].find((f) => typeof body?.[f] === "string" && beyond(body[f] as string, 0xff));
      if (!isProviderCreate(req) || field === undefined) return undefined;
      return problemOf(422, "validation", "Validation failed", `${field} holds a character the service cannot store`, {
        errors: [{ pointer: `/${field}`, detail: "only Latin-1 characters are accepted" }],
      });
    },
  },
  {
    id: "commands-latin1-mojibake-in-list",
    level: "MUST",
    description:
      "install_command and build_command with non-ASCII characters are listed re-encoded as Latin-1 (create answers are right)",
    response: (req, res) =>
      listedPart(req, res, "source_config", (config) => {
        for (const field of ["install_command", "build_command"])
          if (typeof config[field] === "string" && beyond(config[field] as string, 0x7f))
            config[field] = Buffer.from(config[field] as string, "utf8").toString("latin1");
      }),
  },
  {
    id: "backslash-doubled-in-list",
    level: "MUST",
    description: "A backslash in graph_config_path or source_tarball_path is listed doubled (escaping applied twice)",
    response: (req, res) =>
      listedPart(req, res, "source_revision_config", (revision) => {
        for (const field of ["graph_config_path", "source_tarball_path"])
          if (typeof revision[field] === "string") revision[field] = (revision[field] as string).replace(/\\/g, "\\\\");
      }),
  },
  {
    id: "name-contains-decoded-twice",
    level: "MUST",
    description: "The name_contains value is percent-decoded a second time (a%2Db searches a-b)",
    request: (req) => {
      const value = req.url.searchParams.get("name_contains");
      if (isList(req) && value !== null) req.url.searchParams.set("name_contains", decodedAgain(value));
      return undefined;
    },
  },
  {
    id: "name-contains-trimmed",
    level: "MUST",
    description: "The name_contains value is trimmed of whitespace at its edges (' app' finds app-1)",
    request: (req) => {
      const value = req.url.searchParams.get("name_contains");
      if (isList(req) && value !== null) req.url.searchParams.set("name_contains", value.trim());
      return undefined;
    },
  },
  deploymentIdsByPrefix(),
  {
    id: "name-contains-searches-ids",
    level: "MUST",
    description:
      "name_contains (alone, with limit and offset) also matches a deployment whose id holds the value, as a search over name and id",
    response: async (req, res, upstream) => {
      const query = req.url.searchParams;
      const needle = query.get("name_contains")?.toLowerCase();
      const alone = [...query.keys()].every((k) => ["name_contains", "limit", "offset"].includes(k));
      if (!isList(req) || !ok(res) || !needle || !alone) return undefined;
      // the whole list, read page by page (bounded), searched over both fields
      const all: Json[] = [];
      for (let page = 0; page < 50; page++) {
        const got = await upstream("GET", `${req.url.pathname}?limit=100&offset=${page * 100}`, req.headers);
        const resources = (JSON.parse(got.body) as Json).resources as Json[];
        all.push(...resources);
        if (resources.length < 100) break;
      }
      const hits = all.filter((d) => String(d.name).toLowerCase().includes(needle) || String(d.id).includes(needle));
      const offset = Number(query.get("offset") ?? "0");
      const resources = hits.slice(offset, offset + Number(query.get("limit") ?? "20"));
      return { ...res, body: JSON.stringify({ resources, offset: offset + resources.length }) };
    },
  },
];
