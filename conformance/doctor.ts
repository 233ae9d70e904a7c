/**
 * `deployment-conformance doctor [flags]` (D-152): checks every input a run would use against the target and
 * prints, per input, whether it is right, what it enables and what a run skips without it. Exit 2 when an input
 * given is wrong (or the preflight fails), else 0. It sends only reads, but for the hosting probe (one create,
 * left out with --read-only).
 */
import type { Check, Need } from "./check.js";
import { ConfigError, type ConformanceConfig, doctorUsage, resolveConfig } from "./config.js";
import { deploymentBody, newRunId, runPrefix } from "./data.js";
import { paths } from "./helpers.js";
import { buildUrl, type Exchange, sendHttp, TransportError } from "./http.js";
import { PreflightError, preflight } from "./preflight.js";

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
  method?: "GET" | "POST";
  path: string;
  query?: Record<string, string>;
  apiKey?: string;
  /** The X-Tenant-Id to send; none when undefined. */
  tenant?: string;
  json?: unknown;
}

async function ask(config: ConformanceConfig, a: Ask): Promise<Exchange> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...config.headers,
    "X-Api-Key": a.apiKey ?? config.apiKey,
  };
  if (a.tenant) headers["X-Tenant-Id"] = a.tenant;
  if (a.json !== undefined) headers["Content-Type"] = "application/json";
  return sendHttp({
    method: a.method ?? "GET",
    url: buildUrl(config.baseUrl, a.path, a.query),
    headers,
    body: a.json === undefined ? undefined : JSON.stringify(a.json),
    keyRef: a.apiKey ? "other" : "main",
    timeoutMs: Math.min(config.timeoutMs, 5000),
    secrets: [config.apiKey, ...(config.otherApiKey ? [config.otherApiKey] : [])],
  });
}

const ok2xx = (ex: Exchange) => ex.response.status >= 200 && ex.response.status < 300;
const records = (ex: Exchange): Record<string, unknown>[] => {
  const body = ex.json as { resources?: unknown } | unknown[] | undefined;
  const list = Array.isArray(body) ? body : Array.isArray(body?.resources) ? body.resources : [];
  return list.filter((r): r is Record<string, unknown> => r !== null && typeof r === "object");
};

/** The integration inputs: the id must name an integration of the tenant that holds at least one repository. */
async function integration(config: ConformanceConfig, managed: boolean): Promise<InputVerdict> {
  const flag = managed ? "--managed-integration-id" : "--integration-id";
  const needs: Need[] = [managed ? "managedIntegration" : "integration"];
  const id = managed ? config.managedIntegrationId : config.integrationId;
  if (!id) return { flag, state: "absent", detail: "not given", needs };
  const ex = await ask(config, { path: managed ? paths.managedRepos(id) : paths.repos(id), tenant: config.tenantId });
  const op = managed ? "operation 4 (managed)" : "operation 3";
  if (ex.response.status === 404)
    return { flag, state: "wrong", detail: `${id}: unknown integration (${op} answered 404 in this tenant)`, needs };
  if (!ok2xx(ex)) return { flag, state: "wrong", detail: `${id}: ${op} answered ${ex.response.status}`, needs };
  const n = Array.isArray(ex.json) ? ex.json.length : 0;
  if (n === 0)
    return { flag, state: "wrong", detail: `${id}: holds no repository (the codehost checks need one)`, needs };
  return { flag, state: "ok", detail: `${id}: ${n} repositor${n === 1 ? "y" : "ies"}`, needs };
}

/** Every input with its verdict, in flag order. Assumes the preflight passed (target reached, key accepted). */
async function diagnoseInputs(config: ConformanceConfig): Promise<InputVerdict[]> {
  const out: InputVerdict[] = [];
  const mine = await ask(config, { path: paths.deployments, tenant: config.tenantId });
  out.push({
    flag: "--api-key",
    state: "ok",
    detail: `accepted (list deployments ${mine.response.status})`,
    needs: [],
  });
  const ownTenant = records(mine)[0]?.tenant_id as string | undefined;
  out.push(
    config.tenantId
      ? {
          flag: "--tenant-id",
          state: "ok",
          detail: `${config.tenantId}: reached; the run fills it for good (no delete)`,
          needs: [],
        }
      : {
          flag: "--tenant-id",
          state: "absent",
          detail: `the key's default tenant${ownTenant ? ` (${ownTenant})` : ""} is filled for good (the interface has no delete)`,
          needs: [],
        },
  );
  if (!config.otherTenantId)
    out.push({ flag: "--other-tenant-id", state: "absent", detail: "not given", needs: ["otherTenant"] });
  else {
    const ex = await ask(config, { path: paths.deployments, tenant: config.otherTenantId });
    out.push(
      !ok2xx(ex)
        ? {
            flag: "--other-tenant-id",
            state: "wrong",
            detail: `${config.otherTenantId}: the key cannot reach it (${ex.response.status})`,
            needs: ["otherTenant"],
          }
        : ownTenant && ownTenant.toLowerCase() === config.otherTenantId.toLowerCase()
          ? {
              flag: "--other-tenant-id",
              state: "wrong",
              detail: `${config.otherTenantId}: the tenant the run already uses; name a second one`,
              needs: ["otherTenant"],
            }
          : {
              flag: "--other-tenant-id",
              state: "ok",
              detail: `${config.otherTenantId}: reached by the same key`,
              needs: ["otherTenant"],
            },
    );
  }
  out.push(await integration(config, false));
  out.push(await integration(config, true));
  out.push(await otherKey(config));
  out.push(await hosting(config));
  return out;
}

/** The other key: accepted, and of another organization (no provider or tenant in common with the main key). */
async function otherKey(config: ConformanceConfig): Promise<InputVerdict> {
  const flag = "--other-api-key";
  const needs: Need[] = ["otherApiKey"];
  if (!config.otherApiKey) return { flag, state: "absent", detail: "not given", needs };
  const theirs = await ask(config, { path: paths.providers, apiKey: config.otherApiKey });
  if (!ok2xx(theirs))
    return {
      flag,
      state: "wrong",
      detail: `not accepted (list OAuth providers answered ${theirs.response.status})`,
      needs,
    };
  const ours = await ask(config, { path: paths.providers, tenant: config.tenantId });
  const orgs = (ex: Exchange) => new Set(records(ex).map((r) => String(r.organization_id)));
  const shared = [...orgs(ours)].filter((o) => orgs(theirs).has(o));
  if (shared.length > 0)
    return {
      flag,
      state: "wrong",
      detail: `a key of the same organization (${shared[0]}): give a key of another one`,
      needs,
    };
  const ourDeps = await ask(config, { path: paths.deployments, tenant: config.tenantId });
  const theirDeps = await ask(config, { path: paths.deployments, apiKey: config.otherApiKey });
  const tenants = new Set(records(theirDeps).map((r) => String(r.tenant_id)));
  if (records(ourDeps).some((r) => tenants.has(String(r.tenant_id))))
    return {
      flag,
      state: "wrong",
      detail: "it reaches the same tenant as --api-key: give a key of another organization",
      needs,
    };
  if (records(ours).length === 0 && records(ourDeps).length === 0)
    return { flag, state: "unchecked", detail: "accepted; nothing listed yet to tell its organization apart", needs };
  return { flag, state: "ok", detail: "accepted, another organization", needs };
}

/** The hosting kind: `external_container` is accepted only when self-hosted (interface-spec rules 2 and 3). */
async function hosting(config: ConformanceConfig): Promise<InputVerdict> {
  const flag = "--hosting";
  const needs: Need[] = [config.hosting];
  if (config.readOnly)
    return { flag, state: "unchecked", detail: `${config.hosting} (not probed: --read-only)`, needs };
  const name = `${runPrefix(newRunId())}doctor-hosting`;
  const ex = await ask(config, {
    method: "POST",
    path: paths.deployments,
    tenant: config.tenantId,
    json: deploymentBody(name, "external_container"),
  });
  const accepted = ok2xx(ex);
  const status = ex.response.status;
  if (config.hosting === "cloud" && accepted)
    return {
      flag,
      state: "wrong",
      detail: `cloud declared, but an external_container deployment was accepted (${status}, named ${name}): --hosting self_hosted`,
      needs,
    };
  if (config.hosting === "self_hosted" && !accepted)
    return {
      flag,
      state: "wrong",
      detail: `self_hosted declared, but an external_container deployment was refused (${status}): --hosting cloud`,
      needs,
    };
  return {
    flag,
    state: "ok",
    detail: `${config.hosting}: external_container ${accepted ? `accepted (created ${name})` : `refused (${status})`}`,
    needs,
  };
}

/** How many checks (and MUST checks) need one of these needs. */
function countNeeding(checks: readonly Check[], needs: Need[]): { all: number; must: number } {
  const of = checks.filter((c) => needs.some((n) => c.needs.includes(n)));
  return { all: of.length, must: of.filter((c) => c.level === "MUST").length };
}

/** The printed lines: one per input, with what it enables or what a run skips without it. */
export function renderDoctor(baseUrl: string, verdicts: InputVerdict[], checks: readonly Check[]): string[] {
  const mark = { ok: "✓", wrong: "✗", absent: "○", unchecked: "?" } as const;
  const lines = [`doctor: ${baseUrl} (reached, serves the interface, takes the key)`];
  for (const v of verdicts) {
    const n = countNeeding(checks, v.needs);
    const effect =
      v.needs.length === 0
        ? ""
        : v.state === "absent" || v.state === "wrong"
          ? ` · without it ${n.all} checks are skipped (${n.must} MUST)`
          : ` · enables ${n.all} checks (${n.must} MUST)`;
    lines.push(`${mark[v.state]} ${v.flag.padEnd(25)} ${v.detail}${effect}`);
  }
  const wrong = verdicts.filter((v) => v.state === "wrong");
  lines.push(
    wrong.length > 0
      ? `${wrong.length} input${wrong.length === 1 ? "" : "s"} wrong: fix ${wrong.map((v) => v.flag).join(", ")} (exit 2)`
      : "Every input given is right.",
  );
  return lines;
}

/** The `doctor` subcommand: returns the exit code. */
export async function doctor(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let config: ConformanceConfig;
  try {
    const resolved = resolveConfig(argv, env);
    if (resolved.help || resolved.list) {
      console.log(doctorUsage());
      return 0;
    }
    config = resolved.config;
    await preflight(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError) {
      console.error(`conformance doctor: ${error.message}`);
      return 2;
    }
    throw error;
  }
  let verdicts: InputVerdict[];
  try {
    verdicts = await diagnoseInputs(config);
  } catch (error) {
    if (error instanceof TransportError) {
      console.error(`conformance doctor: the target stopped answering: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const { allChecks } = await import("./checks/index.js");
  console.log(renderDoctor(config.baseUrl, verdicts, allChecks).join("\n"));
  return verdicts.some((v) => v.state === "wrong") ? 2 : 0;
}
