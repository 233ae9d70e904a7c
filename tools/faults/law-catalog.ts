/**
 * Faults that break a general law and no single rule (D-370 to D-374): each is caught by its LAW-* check alone, at
 * its level (conformance/checks/laws-*.ts). Some keep state over a run (what is in flight, what was created).
 */
import { demo } from "../../contract/index.js";
import {
  eachDeployment,
  eachProvider,
  isDeployments,
  isProviders,
  type Json,
  mapJson,
  ok,
  problemOf,
} from "./catalog.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

const isCreate = (r: ProxyRequest) => isDeployments(r) && r.method === "POST";
const isList = (r: ProxyRequest) => isDeployments(r) && r.method === "GET";
const withKey = (r: ProxyRequest) => (r.headers["x-api-key"] ?? r.headers.authorization ?? "") !== "";

/** A problem detail titled by its kind, with extra headers (an Allow, a Retry-After). */
const problem = (status: number, kind: string, detail: string, headers: Record<string, string> = {}): ProxyResponse => {
  const answer = problemOf(status, kind, kind, detail);
  return { ...answer, headers: { ...answer.headers, ...headers } };
};

/** LAW-001: a create that overlaps another is answered 201, but its write is lost: no list shows it. */
function lostCreateUnderConcurrency(): Fault {
  let inFlight = 0;
  const overlapping = new WeakSet<ProxyRequest>();
  const lost = new Set<string>();
  return {
    id: "lost-create-under-concurrency",
    level: "MUST",
    description:
      "A deployment create that arrives while another is in flight is answered 201, but no list ever shows it",
    request: (req) => {
      if (!isCreate(req)) return undefined;
      if (inFlight > 0) overlapping.add(req);
      inFlight += 1;
      return undefined;
    },
    response: (req, res) => {
      if (isCreate(req)) {
        inFlight -= 1;
        if (overlapping.has(req) && ok(res)) lost.add(String((JSON.parse(res.body) as Json).id));
        return undefined;
      }
      if (!isList(req) || !ok(res) || lost.size === 0) return undefined;
      return mapJson(res, (body) => {
        const page = body as Json;
        page.resources = (page.resources as Json[]).filter((d) => !lost.has(String(d.id)));
        return page;
      });
    },
  };
}

/** LAW-002: a create that overlaps one of another name is refused 409, as if the name were taken. */
function conflictUnderConcurrency(): Fault {
  const inFlight = new Map<ProxyRequest, string>();
  return {
    id: "spurious-conflict-under-concurrency",
    level: "SHOULD",
    description:
      "A deployment create that arrives while a create of another name is in flight is answered 409 conflict",
    request: (req) => {
      if (!isCreate(req)) return undefined;
      const name = String((req.json as Json | undefined)?.name);
      if ([...inFlight.values()].some((other) => other !== name))
        return problem(409, "conflict", `A deployment named ${name} already exists in this tenant.`);
      inFlight.set(req, name);
      return undefined;
    },
    response: (req) => void inFlight.delete(req),
  };
}

/** Where a record is created and listed, and the member of its create body that names it. */
interface RecordKind {
  isCreate: (req: ProxyRequest) => boolean;
  isList: (req: ProxyRequest) => boolean;
  key: string;
  each: (res: ProxyResponse, f: (record: Json) => void) => ProxyResponse;
}

/**
 * A record listed before it is whole: while its create is unanswered (its answer held 40 ms), lists show it with
 * `damage` done, as from a store that writes part of it after the row, outside its transaction.
 */
function listedHalfWritten(id: string, description: string, kind: RecordKind, damage: (record: Json) => void): Fault {
  const unanswered = new Set<string>();
  const keyOf = (req: ProxyRequest) => (req.json as Json | undefined)?.[kind.key];
  return {
    id,
    level: "MUST",
    description,
    request: (req) => {
      const key = keyOf(req);
      if (kind.isCreate(req) && typeof key === "string") unanswered.add(key);
      return undefined;
    },
    response: async (req, res) => {
      if (kind.isCreate(req)) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        unanswered.delete(String(keyOf(req)));
        return undefined;
      }
      if (!kind.isList(req) || !ok(res)) return undefined;
      return kind.each(res, (record) => {
        if (unanswered.has(String(record[kind.key]))) damage(record);
      });
    },
  };
}

const deploymentKind: RecordKind = { isCreate, isList, key: "name", each: eachDeployment };
const providerKind: RecordKind = {
  isCreate: (req) => isProviders(req) && req.method === "POST",
  isList: (req) => isProviders(req) && req.method === "GET",
  key: "provider_id",
  each: eachProvider,
};

/** LAW-020: a deployment list filtered by more than one tag value id fails with a 500, as from an unbound SQL array. */
const tagValueIdsListFails: Fault = {
  id: "tag-value-ids-list-500",
  level: "MUST",
  description: "A deployment list whose tag_value_ids names more than one id is answered 500 internal",
  request: (req) =>
    isList(req) && (req.url.searchParams.get("tag_value_ids") ?? "").includes(",")
      ? problem(500, "internal", "The server failed to answer the request.")
      : undefined,
};

/** DEP-LIST-020: name_contains with an empty value matches nothing, as from a filter that skips empty needles wrongly. */
const emptyNameContainsMatchesNothing: Fault = {
  id: "empty-name-contains-matches-nothing",
  level: "MUST",
  description: "name_contains= (empty, contained in every name) is answered 200 with no deployment",
  response: (req, res) =>
    isList(req) && ok(res) && req.url.searchParams.get("name_contains") === ""
      ? mapJson(res, (body) => ({ ...(body as Json), resources: [] }))
      : undefined,
};

/** LAW-003: every deployment create touches the organization's providers: their updated_at becomes its time. */
function providersTouchedByDeployments(): Fault {
  let touchedAt: string | undefined;
  return {
    id: "providers-touched-by-deployment-create",
    level: "MUST",
    description:
      "Each deployment create sets updated_at of every OAuth provider created before it to its own time (a write that touches another resource)",
    response: (req, res) => {
      if (isCreate(req) && ok(res)) touchedAt = String((JSON.parse(res.body) as Json).created_at);
      if (!isProviders(req) || !ok(res) || !touchedAt) return undefined;
      const at = touchedAt;
      return eachProvider(res, (p) => {
        if (String(p.created_at) < at) p.updated_at = at;
      });
    },
  };
}

/** LAW-004: the deployment list reads its parameter names in any letter case (LIMIT=1 is limit=1). */
const queryNamesCaseFolded: Fault = {
  id: "query-names-case-folded",
  level: "SHOULD",
  description: "The deployment list reads query parameter names in any letter case, so LIMIT=1 limits the page",
  request: (req) => {
    if (!isList(req)) return undefined;
    const folded = new URLSearchParams();
    for (const [name, value] of req.url.searchParams) folded.append(name.toLowerCase(), value);
    req.url.search = folded.toString();
    return undefined;
  },
};

/** LAW-015: every provider create touches the tenant's deployments: their updated_at becomes its time. */
function deploymentsTouchedByProviders(): Fault {
  let touchedAt: string | undefined;
  return {
    id: "deployments-touched-by-provider-create",
    level: "SHOULD",
    description:
      "Each OAuth provider create sets updated_at of every deployment created before it to its own time (a write that touches another resource)",
    response: (req, res) => {
      if (isProviders(req) && req.method === "POST" && ok(res))
        touchedAt = String((JSON.parse(res.body) as Json).created_at);
      if (!isDeployments(req) || !ok(res) || !touchedAt) return undefined;
      const at = touchedAt;
      return eachDeployment(res, (d) => {
        if (String(d.created_at) < at && String(d.updated_at) < at) d.updated_at = at;
      });
    },
  };
}

/** LAW-004: the providers list takes the deployment list's limit (the server refuses it as unknown; the fault applies it). */
function providersListHonoursLimit(): Fault {
  const limits = new WeakMap<ProxyRequest, number>();
  return {
    id: "providers-list-honours-limit",
    level: "SHOULD",
    description:
      "The OAuth providers list applies the deployment list's limit parameter, where any other unknown parameter is refused",
    request: (req) => {
      const limit = Number(req.url.searchParams.get("limit"));
      if (!isProviders(req) || req.method !== "GET" || !(limit > 0)) return undefined;
      limits.set(req, limit);
      req.url.searchParams.delete("limit");
      return undefined;
    },
    response: (req, res) => {
      const limit = limits.get(req);
      if (limit === undefined || !ok(res)) return undefined;
      return mapJson(res, (body) => (Array.isArray(body) ? body.slice(0, limit) : body));
    },
  };
}

/** The scope a request acts in: its key and tenant header. */
const scopeOf = (r: ProxyRequest) => `${r.headers["x-api-key"] ?? ""}|${r.headers["x-tenant-id"] ?? ""}`;

/**
 * A fault that answers some created deployments with another record's id (`pick`: the id to show for a create answer
 * in a scope, or none), and keeps each scope consistent: its lists show the ids it was answered and its deployment_ids
 * reach the records it created.
 */
function aliasedIds(
  fault: Pick<Fault, "id" | "level" | "description">,
  pick: (scope: string, record: Json) => string | undefined,
): Fault {
  /** Per scope: the id answered → the id upstream holds. */
  const aliases = new Map<string, Map<string, string>>();
  return {
    ...fault,
    request: (req) => {
      const map = aliases.get(scopeOf(req));
      const ids = req.url.searchParams.get("deployment_ids");
      if (!isList(req) || !map || ids === null) return undefined;
      req.url.searchParams.set(
        "deployment_ids",
        ids
          .split(",")
          .map((id) => map.get(id) ?? id)
          .join(","),
      );
      return undefined;
    },
    response: (req, res) => {
      if (!isDeployments(req) || !ok(res)) return undefined;
      const scope = scopeOf(req);
      const map = aliases.get(scope) ?? new Map<string, string>();
      aliases.set(scope, map);
      const answered = new Map([...map].map(([shown, held]) => [held, shown]));
      return eachDeployment(res, (d) => {
        if (isCreate(req)) {
          const shown = pick(scope, d);
          if (shown !== undefined) {
            map.set(shown, String(d.id));
            d.id = shown;
          }
          return;
        }
        const shown = answered.get(String(d.id));
        if (shown) d.id = shown;
      });
    },
  };
}

/** LAW-005: a deployment created elsewhere under a name already used is given that deployment's id. */
function sameIdAcrossTenants(): Fault {
  const byName = new Map<string, { scope: string; id: string }>();
  return aliasedIds(
    {
      id: "same-id-in-other-tenant",
      level: "MUST",
      description:
        "A deployment created in another tenant or organization under a name already used is answered and listed with the first one's id",
    },
    (scope, d) => {
      const name = String(d.name);
      const first = byName.get(name);
      if (!first) byName.set(name, { scope, id: String(d.id) });
      return first && first.scope !== scope ? first.id : undefined;
    },
  );
}

/** LAW-005 over the run (D-430): ids from a counter per tenant, so the first deployment of each scope shares an id. */
function idsCountedPerTenant(): Fault {
  let firstScope: { scope: string; id: string } | undefined;
  const started = new Set<string>();
  return aliasedIds(
    {
      id: "deployment-ids-counted-per-tenant",
      level: "MUST",
      description:
        "The first deployment created in each tenant or organization is answered and listed with the id of the first one created in the first tenant",
    },
    (scope, d) => {
      firstScope ??= { scope, id: String(d.id) };
      if (started.has(scope)) return undefined;
      started.add(scope);
      return scope === firstScope.scope ? undefined : firstScope.id;
    },
  );
}

/** Cuts a timestamp's fraction to milliseconds. */
const milliseconds = (value: unknown) => String(value).replace(/\.(\d{3})\d*Z$/, ".$1Z");

/** Moves a timestamp back by `ms` (whole seconds), keeping its written fraction. */
function earlier(value: unknown, ms: number): string {
  const text = String(value);
  const whole = new Date(Date.parse(text) - ms).toISOString().slice(0, 19);
  return `${whole}${text.slice(19)}`;
}

/** The key a create is held under: the caller's key and tenant, and the name it creates. */
const heldKey = (req: ProxyRequest) =>
  `${req.headers["x-api-key"] ?? ""}|${req.headers["x-tenant-id"] ?? ""}|${String((req.json as Json | undefined)?.name)}`;

/** What a create body writes over a held record: its source, configuration and secret names (values masked). */
const writtenBy = (body: Json): Json => ({
  source: body.source,
  source_config: body.source_config,
  source_revision_config: body.source_revision_config,
  secrets: ((body.secrets as Json[] | undefined) ?? []).map((secret) => ({ name: secret.name, value: "********" })),
});

/**
 * LAW-018: a create of a name the tenant holds is written over the held record (the upstream's 409 becomes its 201,
 * with the held id), or (`answered: "409"`) refused as a 409 whose write still lands; lists show what was written.
 */
function createWrittenOverHeld(id: string, answered: "201" | "409"): Fault {
  const held = new Map<string, Json>();
  const written = new Map<string, Json>();
  return {
    id,
    level: "MUST",
    description:
      answered === "201"
        ? "A create of a name the tenant holds is an upsert: answered 201 with the held id, and the held record takes the new source and configuration"
        : "A create of a name the tenant holds is refused 409, but its source and configuration are still written over the held record",
    response: (req, res) => {
      if (isCreate(req)) {
        if (ok(res)) held.set(heldKey(req), JSON.parse(res.body) as Json);
        const record = held.get(heldKey(req));
        if (res.status !== 409 || !record) return undefined;
        const over = { ...writtenBy(req.json as Json), updated_at: new Date().toISOString() };
        written.set(String(record.id), over);
        return answered === "409"
          ? undefined
          : {
              status: 201,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ ...record, ...over }),
            };
      }
      if (!isList(req) || !ok(res)) return undefined;
      return eachDeployment(res, (d) => Object.assign(d, written.get(String(d.id)) ?? {}));
    },
  };
}

/** The values a comma-separated query parameter names more than once. */
function repeatedValues(req: ProxyRequest, name: string): string[] {
  const values = req.url.searchParams.get(name)?.split(",") ?? [];
  return values.filter((value, i) => values.indexOf(value) !== i);
}

/** A deployment page with each record `twice` picks listed twice, next to itself. */
function listedTwice(res: ProxyResponse, twice: (d: Json) => boolean): ProxyResponse {
  return mapJson(res, (body) => {
    const page = body as Json;
    page.resources = (page.resources as Json[]).flatMap((d) => (twice(d) ? [d, d] : [d]));
    return page;
  });
}

/**
 * LAW-021: a create that leaves a member of source_config out is answered, and listed, with the one the create before
 * it sent, as from a store that reuses the last row's value for a column the insert does not name.
 */
function carriedOver(id: string, hosting: "cloud" | "self_hosted", description: string, member: string): Fault {
  let last: unknown;
  const given = new Map<string, unknown>();
  const empty = (value: unknown) =>
    value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  return {
    id,
    level: "MUST",
    hosting,
    description,
    response: (req, res) => {
      if (!isDeployments(req) || !ok(res)) return undefined;
      return eachDeployment(res, (d) => {
        const id = String(d.id);
        const config = (d.source_config ?? {}) as Json;
        if (isCreate(req)) {
          const own = config[member];
          if (empty(own) && last !== undefined) given.set(id, structuredClone(last));
          else if (!empty(own)) last = structuredClone(own);
        }
        if (given.has(id)) d.source_config = { ...config, [member]: structuredClone(given.get(id)) };
      });
    },
  };
}

const lawFaultList = (): Fault[] => [
  createWrittenOverHeld("create-upserts-by-name", "201"),
  createWrittenOverHeld("refused-create-still-written", "409"),
  lostCreateUnderConcurrency(),
  carriedOver(
    "resource-spec-of-previous-create",
    "self_hosted",
    "A deployment created without a resource_spec shows the one the create before it sent",
    "resource_spec",
  ),
  carriedOver(
    "commands-of-previous-create",
    "cloud",
    "A deployment created without an install_command shows the one the create before it sent",
    "install_command",
  ),
  // LAW-001: a deployment listed without its secrets
  listedHalfWritten(
    "listed-half-written",
    "While a deployment create is unanswered (its answer held 40 ms), lists show the new record with secrets [], as when the secrets are written after the record",
    deploymentKind,
    (d) => {
      d.secrets = [];
    },
  ),
  // LAW-017: a provider listed without its client settings
  listedHalfWritten(
    "provider-listed-half-written",
    'While an OAuth provider create is unanswered (its answer held 40 ms), lists show the new provider with client_id "", as when the client settings are written after the row',
    providerKind,
    (p) => {
      p.client_id = "";
    },
  ),
  tagValueIdsListFails,
  emptyNameContainsMatchesNothing,
  conflictUnderConcurrency(),
  providersTouchedByDeployments(),
  deploymentsTouchedByProviders(),
  queryNamesCaseFolded,
  providersListHonoursLimit(),
  sameIdAcrossTenants(),
  idsCountedPerTenant(),
  {
    id: "repeated-deployment-id-answered-twice",
    level: "MUST",
    description: "A deployment named twice in deployment_ids is listed twice",
    response: (req, res) => {
      const repeated = repeatedValues(req, "deployment_ids");
      if (!isList(req) || !ok(res) || repeated.length === 0) return undefined;
      return listedTwice(res, (d) => repeated.includes(String(d.id)));
    },
  },
  {
    id: "repeated-status-listed-twice",
    level: "MUST",
    description:
      "A status named twice in the status filter lists its deployments twice, as a union of one query per value",
    response: (req, res) => {
      const repeated = repeatedValues(req, "status");
      if (!isList(req) || !ok(res) || repeated.length === 0) return undefined;
      return listedTwice(res, (d) => repeated.includes(String(d.status)));
    },
  },
  {
    id: "ids-and-statuses-joined-twice",
    level: "MUST",
    description:
      "deployment_ids beside a status list of two or more values lists each deployment twice, as a join that repeats rows",
    response: (req, res) => {
      const statuses = req.url.searchParams.get("status")?.split(",") ?? [];
      if (!isList(req) || !ok(res) || statuses.length < 2 || !req.url.searchParams.has("deployment_ids"))
        return undefined;
      return listedTwice(res, () => true);
    },
  },
  {
    id: "name-contains-dropped-with-deployment-type",
    level: "MUST",
    description:
      "name_contains is left out of the query whenever deployment_type is in it, as a query builder with one branch too few",
    request: (req) => {
      if (isList(req) && req.url.searchParams.has("deployment_type")) req.url.searchParams.delete("name_contains");
      return undefined;
    },
  },
  {
    id: "deployment-ids-dropped-with-remote-reconciled",
    level: "MUST",
    description: "deployment_ids is left out of the query whenever remote_reconciled is in it",
    request: (req) => {
      if (isList(req) && req.url.searchParams.has("remote_reconciled")) req.url.searchParams.delete("deployment_ids");
      return undefined;
    },
  },
  {
    id: "skewed-clock-created-at",
    level: "MUST",
    description:
      "Deployments carry a created_at from a clock 10 minutes slow, in every answer (updated_at from the right one)",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            d.created_at = earlier(d.created_at, 600_000);
          })
        : undefined,
  },
  {
    id: "ready-updated-at-ahead",
    level: "MUST",
    description:
      "A READY deployment's updated_at is an hour ahead of the clock, as when a provisioning worker writes its local time as UTC",
    response: (req, res) =>
      isDeployments(req) && ok(res)
        ? eachDeployment(res, (d) => {
            if (d.status === "READY")
              d.updated_at = new Date(Date.parse(String(d.updated_at)) + 3_600_000).toISOString();
          })
        : undefined,
  },
  {
    id: "updated-at-stamped-on-read",
    level: "SHOULD",
    description:
      "A listed deployment's updated_at is the time of the list, as when a read stamps the record it derives (D-453: only the create and a status transition move it)",
    response: (req, res) =>
      isList(req) && ok(res)
        ? eachDeployment(res, (d) => {
            // the server's form, to the microsecond, so only the moving time tells
            d.updated_at = new Date().toISOString().replace("Z", "000Z");
          })
        : undefined,
  },
  {
    id: "provider-timestamps-in-milliseconds",
    level: "SHOULD",
    description: "OAuth providers' timestamps are written to the millisecond, deployments' to the microsecond",
    response: (req, res) =>
      isProviders(req) && ok(res)
        ? eachProvider(res, (p) => {
            p.created_at = milliseconds(p.created_at);
            p.updated_at = milliseconds(p.updated_at);
          })
        : undefined,
  },
  {
    id: "accept-with-q-values-406",
    level: "SHOULD",
    description: "A request whose Accept carries q-values is answered 406, though it takes application/json",
    request: (req) =>
      withKey(req) && /;\s*q=/i.test(req.headers.accept ?? "")
        ? problem(406, "not-acceptable", "Only application/json can be sent.")
        : undefined,
  },
  etagUnchangedAfterCreate(),
  lastModifiedUnchangedAfterCreate(),
  {
    id: "head-405-on-providers",
    level: "SHOULD",
    description: "HEAD of the OAuth providers list with a key is answered 405 (GET answers 200)",
    request: (req) =>
      req.method === "HEAD" && isProviders(req) && withKey(req)
        ? problem(405, "method-not-allowed", "HEAD is not allowed here.", { allow: "GET, POST" })
        : undefined,
  },
  pipelinedAnswersCrossed(),
  {
    id: "provider-org-from-tenant-header",
    level: "SHOULD",
    description:
      "An OAuth provider created or listed with X-Tenant-Id of the key's second tenant carries that tenant id as organization_id",
    response: (req, res) => {
      const tenant = req.headers["x-tenant-id"];
      if (!isProviders(req) || !ok(res) || !tenant || tenant === demo.acme.productionTenantId) return undefined;
      return eachProvider(res, (p) => {
        p.organization_id = tenant;
      });
    },
  },
  {
    id: "percent-encoded-names-ignored",
    level: "SHOULD",
    description:
      "A query parameter whose name is percent-encoded (%6C%69%6D%69%74 for limit) is dropped, as if unknown",
    request: (req) => {
      if (!isList(req) || !req.url.search.includes("%")) return undefined;
      const kept = req.url.search
        .slice(1)
        .split("&")
        .filter((pair) => !pair.split("=")[0]!.includes("%"));
      req.url.search = kept.join("&");
      return undefined;
    },
  },
  dateHeaderMissing,
  noAcceptRefused,
  imageVersionLatestIgnored,
  anyIfNoneMatchUnmodified,
  headSkipsValidation,
  absoluteFormNotFound,
  providerCreatesCrossed(),
  updatedAtFrozen,
];

/** LAW-010: any If-None-Match on a list is answered 304, as from a cache that tests the header's presence, not its tags. */
const anyIfNoneMatchUnmodified: Fault = {
  id: "if-none-match-any-304",
  level: "SHOULD",
  description:
    "A list request carrying any If-None-Match is answered 304, even with a tag the server never sent (RFC 9110 §13.1.2)",
  request: (req) =>
    req.method === "GET" && (isProviders(req) || isDeployments(req)) && withKey(req) && req.headers["if-none-match"]
      ? { status: 304, headers: { etag: req.headers["if-none-match"] }, body: "" }
      : undefined,
};

/** LAW-012: a request-target in absolute-form is not routed, as a router that matches the target text as written. */
const absoluteFormNotFound: Fault = {
  id: "absolute-form-not-found",
  level: "SHOULD",
  description:
    "A request whose target is in absolute-form (http://host/v2/auth/providers) is answered 404, though a server must accept that form (RFC 9112 §3.2.2)",
  request: (req) =>
    /^https?:\/\//i.test(req.target) ? problem(404, "not-found", `No route for ${req.target}.`) : undefined,
};

/** LAW-009: a request without Accept is refused 406, as a negotiator that reads a missing header as "nothing". */
const noAcceptRefused: Fault = {
  id: "no-accept-406",
  level: "SHOULD",
  description:
    "A list request without an Accept header is answered 406, though it takes any media type (RFC 9110 §12.5.1)",
  request: (req) =>
    req.method === "GET" && (isProviders(req) || isDeployments(req)) && req.headers.accept === undefined
      ? problem(406, "not-acceptable", "Send an Accept header naming application/json.")
      : undefined,
};

/** LAW-019: image_version=latest is read as "no filter", as a tag that means the newest of every image. */
const imageVersionLatestIgnored: Fault = {
  id: "image-version-latest-ignored",
  level: "MUST",
  description: "The deployment list ignores image_version=latest and returns deployments of every image version",
  request: (req) =>
    void (
      isList(req) &&
      req.url.searchParams.get("image_version") === "latest" &&
      req.url.searchParams.delete("image_version")
    ),
};

/** LAW-011: HEAD of the deployment list is answered 200 before its query is read, as a HEAD shortcut past validation. */
const headSkipsValidation: Fault = {
  id: "head-skips-validation",
  level: "SHOULD",
  description:
    "HEAD of the deployment list is answered 200 whatever its query, where GET refuses limit=0 (RFC 9110 §9.3.2)",
  request: (req) =>
    isDeployments(req) && req.method === "HEAD" && withKey(req)
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"resources":[],"offset":0}' }
      : undefined,
};

/** LAW-010: the lists carry one ETag forever, and If-None-Match with it is 304 even after a change. */
function etagUnchangedAfterCreate(): Fault {
  const isListRead = (r: ProxyRequest) => r.method === "GET" && (isProviders(r) || isDeployments(r));
  return {
    id: "etag-unchanged-after-create",
    level: "SHOULD",
    description:
      'The lists carry ETag "v1" whatever they hold, and If-None-Match "v1" is answered 304 after a create changed them',
    request: (req) =>
      isListRead(req) && withKey(req) && req.headers["if-none-match"] === '"v1"'
        ? { status: 304, headers: { etag: '"v1"' }, body: "" }
        : undefined,
    response: (req, res) =>
      isListRead(req) && ok(res) ? { ...res, headers: { ...res.headers, etag: '"v1"' } } : undefined,
  };
}

/** LAW-010 (D-431): the lists carry the Last-Modified of the proxy's start, and If-Modified-Since is 304 after a change. */
function lastModifiedUnchangedAfterCreate(): Fault {
  const isListRead = (r: ProxyRequest) => r.method === "GET" && (isProviders(r) || isDeployments(r));
  const started = new Date().toUTCString();
  return {
    id: "last-modified-unchanged-after-create",
    level: "SHOULD",
    description:
      "The lists carry the Last-Modified of the server's start whatever they hold, and If-Modified-Since with it is answered 304 after a create changed them",
    request: (req) =>
      isListRead(req) && withKey(req) && req.headers["if-modified-since"] === started
        ? { status: 304, headers: { "last-modified": started }, body: "" }
        : undefined,
    response: (req, res) =>
      isListRead(req) && ok(res) ? { ...res, headers: { ...res.headers, "last-modified": started } } : undefined,
  };
}

/** LAW-012: a request pipelined behind another on one connection is answered with that other's answer. */
function pipelinedAnswersCrossed(): Fault {
  const open = new WeakMap<object, { count: number; last: Promise<ProxyResponse> }>();
  const ahead = new WeakMap<ProxyRequest, Promise<ProxyResponse>>();
  const settle = new WeakMap<ProxyRequest, (res: ProxyResponse) => void>();
  return {
    id: "pipelined-answers-crossed",
    level: "SHOULD",
    description: "A request pipelined behind another on one connection gets the answer of the one ahead of it",
    request: (req) => {
      const mine = new Promise<ProxyResponse>((resolve) => settle.set(req, resolve));
      const state = open.get(req.connection);
      if (state && state.count > 0) ahead.set(req, state.last);
      open.set(req.connection, { count: (state?.count ?? 0) + 1, last: mine });
      return undefined;
    },
    response: async (req, res) => {
      settle.get(req)?.(res);
      const state = open.get(req.connection);
      if (state) state.count -= 1;
      const before = ahead.get(req);
      return before ? { ...(await before) } : undefined;
    },
  };
}

/** LAW-017: two provider creates that overlap get each other's answers, as from a shared response buffer. */
function providerCreatesCrossed(): Fault {
  let waiting: { answer: ProxyResponse; settle: (other: ProxyResponse) => void } | undefined;
  return {
    id: "provider-creates-crossed",
    level: "MUST",
    description: "Of two OAuth provider creates answered within 30 ms of each other, each gets the other's answer",
    response: (req, res) => {
      if (!isProviders(req) || req.method !== "POST" || !ok(res)) return undefined;
      const other = waiting;
      if (other) {
        waiting = undefined;
        other.settle(res);
        return other.answer;
      }
      return new Promise<ProxyResponse>((resolve) => {
        const mine = { answer: res, settle: resolve };
        waiting = mine;
        setTimeout(() => {
          if (waiting !== mine) return;
          waiting = undefined;
          resolve(res);
        }, 30);
      });
    },
  };
}

/** DEP-CREATE-023 (D-453): a deployment's updated_at never moves, not even when it becomes READY. */
const updatedAtFrozen: Fault = {
  id: "updated-at-frozen",
  level: "SHOULD",
  description: "A deployment's updated_at is always its created_at, even after it became READY",
  response: (req, res) =>
    isDeployments(req) && ok(res)
      ? eachDeployment(res, (d) => {
          d.updated_at = d.created_at;
        })
      : undefined,
};

/** LAW-016: no answer carries a Date header, as from a server framework set not to send one. */
const dateHeaderMissing: Fault = {
  id: "date-header-missing",
  level: "SHOULD",
  description: "No answer carries a Date header (RFC 9110 §6.6.1)",
  dated: false,
};

/** The law faults, made afresh for each fault run (several keep state over a run). */
export const lawFaults: Fault[] = lawFaultList();
