/**
 * The inputs a run is given, each checked against the target (D-152, D-241, D-485): the integrations list repositories,
 * the other tenant is reached by the key, the other key is of another organization. The preflight and doctor share them.
 * An input is called wrong only on a 401, 403 or 404 of the operation it selects (or a 2xx that shows it unfit).
 */

import { paths } from "../check-kit/helpers.js";
import type { ConformanceConfig } from "../cli/run-config.js";
import type { Need } from "../runner/check.js";
import { buildUrl, type Exchange, sendHttp, TransportError } from "./http-exchange.js";
import { keyHeader } from "./key-header.js";
import { routeOf } from "./operation-paths.js";
import { sendWithinLimits } from "./rate-limit.js";
import { userSecrets } from "./redact.js";
import { connectionFailed, setupVerdict } from "./setup-verdict.js";

/** The verdict on one input. */
export interface InputVerdict {
  flag: string;
  /** ok: given and right; wrong: given and wrong (exit 2); absent: not given; unchecked: given, not decidable here. */
  state: "ok" | "wrong" | "absent" | "unchecked";
  detail: string;
  /** The needs of the checks this input enables (none: every check uses it). */
  needs: Need[];
}

/** What a request of the doctor sends. */
interface Ask {
  method?: string;
  path: string;
  query?: Record<string, string>;
  apiKey?: string;
  /** The X-Tenant-Id to send; none when undefined. */
  tenant?: string;
  /** Send no key at all. */
  noKey?: boolean;
  json?: unknown;
}

export async function ask(config: ConformanceConfig, a: Ask): Promise<Exchange> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...config.headers,
    ...(a.noKey ? {} : keyHeader(config, a.apiKey ?? config.apiKey)),
  };
  if (a.tenant) headers["X-Tenant-Id"] = a.tenant;
  if (a.json !== undefined) headers["Content-Type"] = "application/json";
  // a rate limit is waited for here too (D-380): a 429 says nothing about an input
  return sendWithinLimits(
    () =>
      sendHttp({
        method: a.method ?? "GET",
        url: buildUrl(config.baseUrl, a.path, a.query),
        headers,
        body: a.json === undefined ? undefined : JSON.stringify(a.json),
        keyRef: a.noKey ? "none" : a.apiKey ? "other" : "main",
        timeoutMs: Math.min(config.timeoutMs, 5000),
        maxBytes: config.maxResponseBytes,
        secrets: userSecrets(config),
        userHeaders: Object.keys(config.headers),
        fetch: config.fetch,
      }),
    config,
    { answers: 0, waitedMs: 0 },
  );
}

export const ok2xx = (ex: Exchange) => ex.response.status >= 200 && ex.response.status < 300;

/**
 * An answer that says nothing about the input (D-383, D-485): neither a 2xx nor a 401, 403 or 404 (a redirect, a 5xx,
 * a 400...). The input is left unchecked and the checks run and judge the server. Undefined for the other answers.
 */
function notAboutInput(ex: Exchange, flag: string, needs: Need[]): InputVerdict | undefined {
  if (ok2xx(ex) || setupVerdict({ status: ex.response.status }) === "wrong-input") return undefined;
  return {
    flag,
    state: "unchecked",
    detail: `the target answered ${ex.response.status}: it says nothing about this input; the checks judge the server`,
    needs,
  };
}

/**
 * Runs the verdict on one input; an answer that came but could not be read (bad framing: not a failed connection)
 * leaves the input unchecked, for the checks to judge (D-485). A failed connection is thrown on: the target is gone.
 */
export async function unlessUnreadable(
  flag: string,
  needs: Need[],
  verdict: () => Promise<InputVerdict>,
): Promise<InputVerdict> {
  try {
    return await verdict();
  } catch (error) {
    if (!(error instanceof TransportError) || connectionFailed(error.code)) throw error;
    return {
      flag,
      state: "unchecked",
      detail: `the answer could not be read (${error.code ?? error.message}): a fault of the server; the checks judge it`,
      needs,
    };
  }
}

/** A made-up key of this run: no target has it. */
const madeUpKey = "cf-made-up-key-0f1e2d3c4b5a";

/**
 * Whether the target ignores keys (D-383): a made-up key or no key at all gets a 2xx on the provider list. Then two
 * keys seeing the same records is the server's fault (the auth and isolation checks judge it), never the input's.
 */
async function ignoresKeys(config: ConformanceConfig): Promise<string | undefined> {
  for (const [what, apiKey] of [
    ["a made-up key", madeUpKey],
    ["no key", undefined],
  ] as const) {
    const ex = await ask(config, apiKey ? { path: paths.providers, apiKey } : { path: paths.providers, noKey: true });
    if (ok2xx(ex)) return `${what} is served too (list OAuth providers answered ${ex.response.status})`;
  }
  return undefined;
}

/** A text identifier of a record field, or undefined when the record lacks it (a record without it is no evidence). */
const idOf = (record: Record<string, unknown>, field: string): string | undefined =>
  typeof record[field] === "string" && record[field] !== "" ? (record[field] as string) : undefined;
export const records = (ex: Exchange): Record<string, unknown>[] => {
  const body = ex.json as { resources?: unknown } | unknown[] | undefined;
  const list = Array.isArray(body) ? body : Array.isArray(body?.resources) ? body.resources : [];
  return list.filter((r): r is Record<string, unknown> => r !== null && typeof r === "object");
};

/** The integration inputs: the id must name an integration of the tenant that holds at least one repository. */
export async function integration(config: ConformanceConfig, managed: boolean): Promise<InputVerdict> {
  const flag = managed ? "--managed-integration-id" : "--integration-id";
  const needs: Need[] = [managed ? "managedIntegration" : "integration"];
  const id = managed ? config.managedIntegrationId : config.integrationId;
  if (!id) return { flag, state: "absent", detail: "not given", needs };
  const route = managed ? routeOf(config, "listManagedCodehostRepositories") : { method: "GET", path: paths.repos(id) };
  const ex = await ask(config, {
    method: route.method,
    path: route.path.replace("{integration_id}", id),
    tenant: config.tenantId,
  });
  const op = managed ? `operation 4 (managed, ${route.method} ${route.path})` : "operation 3";
  const judged = notAboutInput(ex, flag, needs);
  if (judged) return judged;
  if (ex.response.status === 404)
    return {
      flag,
      state: "wrong",
      detail: `${id}: unknown integration (${op} answered 404 in this tenant)${managed ? "; if operation 4 lives at another path, give it with --operation-path" : ""}`,
      needs,
    };
  if (!ok2xx(ex)) return { flag, state: "wrong", detail: `${id}: ${op} answered ${ex.response.status}`, needs };
  // a 2xx whose body is no list is the server's fault, for the checks to judge; an empty list shows the input unfit
  if (!Array.isArray(ex.json))
    return {
      flag,
      state: "unchecked",
      detail: `${id}: ${op} answered ${ex.response.status} without a JSON list; the checks judge the server`,
      needs,
    };
  const n = ex.json.length;
  if (n === 0)
    return { flag, state: "wrong", detail: `${id}: holds no repository (the codehost checks need one)`, needs };
  return { flag, state: "ok", detail: `${id}: ${n} repositor${n === 1 ? "y" : "ies"}`, needs };
}

/** The other tenant: reached by the same key, and not the tenant the run already uses. */
export async function otherTenant(config: ConformanceConfig, ownTenant?: string): Promise<InputVerdict> {
  const flag = "--other-tenant-id";
  const needs: Need[] = ["otherTenant"];
  if (!config.otherTenantId) return { flag, state: "absent", detail: "not given", needs };
  const ex = await ask(config, { path: paths.deployments, tenant: config.otherTenantId });
  const judged = notAboutInput(ex, flag, needs);
  if (judged) return judged;
  if (!ok2xx(ex))
    return {
      flag,
      state: "wrong",
      detail: `${config.otherTenantId}: the key cannot reach it (${ex.response.status})`,
      needs,
    };
  if (ownTenant && ownTenant.toLowerCase() === config.otherTenantId.toLowerCase())
    return {
      flag,
      state: "wrong",
      detail: `${config.otherTenantId}: the tenant the run already uses; name a second one`,
      needs,
    };
  return { flag, state: "ok", detail: `${config.otherTenantId}: reached by the same key`, needs };
}

/** The other key: accepted, and of another organization (no provider or tenant in common with the main key). */
export async function otherKey(config: ConformanceConfig): Promise<InputVerdict> {
  const flag = "--other-api-key";
  const needs: Need[] = ["otherApiKey"];
  if (!config.otherApiKey) return { flag, state: "absent", detail: "not given", needs };
  const theirs = await ask(config, { path: paths.providers, apiKey: config.otherApiKey });
  const judged = notAboutInput(theirs, flag, needs);
  if (judged) return judged;
  if (!ok2xx(theirs))
    return {
      flag,
      state: "wrong",
      detail: `not accepted (list OAuth providers answered ${theirs.response.status})`,
      needs,
    };
  const ours = await ask(config, { path: paths.providers, tenant: config.tenantId });
  const ids = (ex: Exchange, field: string) =>
    new Set(records(ex).flatMap((r) => (idOf(r, field) === undefined ? [] : [idOf(r, field)!])));
  const shared = [...ids(ours, "organization_id")].filter((o) => ids(theirs, "organization_id").has(o));
  const ourDeps = await ask(config, { path: paths.deployments, tenant: config.tenantId });
  const theirDeps = await ask(config, { path: paths.deployments, apiKey: config.otherApiKey });
  const sameTenant = [...ids(ourDeps, "tenant_id")].some((t) => ids(theirDeps, "tenant_id").has(t));
  if (shared.length > 0 || sameTenant) {
    // before the input is called wrong, the server is ruled out: one that serves any key fails the checks (D-383)
    const ignored = await ignoresKeys(config);
    if (ignored)
      return {
        flag,
        state: "unchecked",
        detail: `both keys see the same ${shared.length > 0 ? "organization" : "tenant"}, and ${ignored}: the target does not tell keys apart, a fault the auth and isolation checks judge`,
        needs,
      };
    return {
      flag,
      state: "wrong",
      detail:
        shared.length > 0
          ? `a key of the same organization (${shared[0]}): give a key of another one`
          : "it reaches the same tenant as --api-key: give a key of another organization",
      needs,
    };
  }
  if (records(ours).length === 0 && records(ourDeps).length === 0)
    return { flag, state: "unchecked", detail: "accepted; nothing listed yet to tell its organization apart", needs };
  if (ids(ours, "organization_id").size === 0 && ids(ourDeps, "tenant_id").size === 0)
    return {
      flag,
      state: "unchecked",
      detail:
        "accepted; the records listed carry no organization_id or tenant_id to tell its organization apart (the MUST checks judge the records)",
      needs,
    };
  return { flag, state: "ok", detail: "accepted, another organization", needs };
}

/** The verdicts on the ids a run was given (integrations, other tenant, other key); inputs not given are left out. */
export async function givenIds(config: ConformanceConfig): Promise<InputVerdict[]> {
  const out: InputVerdict[] = [];
  if (config.integrationId)
    out.push(await unlessUnreadable("--integration-id", ["integration"], () => integration(config, false)));
  if (config.managedIntegrationId)
    out.push(
      await unlessUnreadable("--managed-integration-id", ["managedIntegration"], () => integration(config, true)),
    );
  if (config.otherTenantId)
    out.push(await unlessUnreadable("--other-tenant-id", ["otherTenant"], () => otherTenant(config)));
  // a stateless target (a mock answering examples) shows every key the same records: no organization to tell apart
  if (config.otherApiKey && !config.stateless)
    out.push(await unlessUnreadable("--other-api-key", ["otherApiKey"], () => otherKey(config)));
  return out;
}

/** OAuth providers a run with the default flags creates in the main key's organization (D-245, measured: 36 to 40). */
export const providersPerRun = 37;

/**
 * How much room the target has left, where it shows it (D-242): the providers the organization holds (the list is
 * answered whole) against a run's creates, and any quota or limit header of the answer (e.g. `RateLimit-Remaining`,
 * `X-Quota-Remaining`). A limit the target shows nowhere is only met when a create is refused.
 */
export async function room(config: ConformanceConfig): Promise<InputVerdict> {
  const ex = await ask(config, { path: paths.providers, tenant: config.tenantId });
  const held = Array.isArray(ex.json) ? ex.json.length : undefined;
  const shown = Object.entries(ex.response.headers)
    .filter(([name]) => /quota|limit/i.test(name))
    .map(([name, value]) => `${name}: ${value}`);
  const count = held === undefined ? "the provider list is not an array" : `${held} OAuth providers held`;
  return {
    flag: "room",
    state: shown.length > 0 ? "ok" : "unchecked",
    detail: `${count}; a run creates about ${providersPerRun}; ${shown.length > 0 ? `the target shows ${shown.join(", ")}` : "the target shows no limit (the reference server's is 500, D-112): a refusal for one ends the run with exit 2"}`,
    needs: [],
  };
}
