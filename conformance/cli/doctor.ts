/**
 * `deployment-conformance doctor [flags]` (D-152): checks every input a run would use against the target and
 * prints, per input, whether it is right, what it enables and what a run skips without it. Exit 2 when an input
 * given is wrong (or the preflight fails), else 0. It sends only reads, but for the hosting probe (one create,
 * left out with --read-only).
 */

import { paths } from "../check-kit/helpers.js";
import { deploymentBody, newRunId, runPrefix } from "../model/data.js";
import { terminalSafe } from "../report/terminal-text.js";
import type { Check, Need } from "../runner/check.js";
import { TransportError } from "../target/http-exchange.js";
import {
  ask,
  type InputVerdict,
  integration,
  ok2xx,
  otherKey,
  otherTenant,
  records,
  room,
  unlessUnreadable,
} from "../target/inputs.js";
import { PreflightError, preflight } from "../target/preflight.js";
import { forgetRateLimits, rateLimitLine, rateLimitStopIn, rateLimitTally } from "../target/rate-limit.js";
import { maskLiterals, userSecrets } from "../target/redact.js";
import { connectionFailed } from "../target/setup-verdict.js";
import { ConfigError, type ConformanceConfig, doctorUsage, resolveConfig } from "./run-config.js";

/** Every input with its verdict, in flag order. Assumes the preflight passed (target reached, key accepted). */
async function diagnoseInputs(config: ConformanceConfig): Promise<InputVerdict[]> {
  const out: InputVerdict[] = [];
  const mine = await ask(config, { path: paths.deployments, tenant: config.tenantId }).catch((error: unknown) => {
    // an answer that could not be read is the server's fault, judged by a run (D-485); a failed connection stops here
    if (error instanceof TransportError && !connectionFailed(error.code)) return error;
    throw error;
  });
  if (mine instanceof TransportError) {
    out.push({
      flag: "--api-key",
      state: "unchecked",
      detail: `list deployments could not be read (${mine.code ?? mine.message})`,
      needs: [],
    });
  } else
    out.push({
      flag: "--api-key",
      state: "ok",
      detail: `accepted (list deployments ${mine.response.status})`,
      needs: [],
    });
  const ownTenant = mine instanceof TransportError ? undefined : (records(mine)[0]?.tenant_id as string | undefined);
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
  // an answer that could not be read leaves its input unchecked, for a run to judge (D-485)
  out.push(await unlessUnreadable("--other-tenant-id", ["otherTenant"], () => otherTenant(config, ownTenant)));
  out.push(await unlessUnreadable("--integration-id", ["integration"], () => integration(config, false)));
  out.push(await unlessUnreadable("--managed-integration-id", ["managedIntegration"], () => integration(config, true)));
  out.push(await unlessUnreadable("--other-api-key", ["otherApiKey"], () => otherKey(config)));
  out.push(await unlessUnreadable("--hosting", [config.hosting], () => hosting(config)));
  out.push(await unlessUnreadable("room", [], () => room(config)));
  return out;
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
    await preflight(config, { ids: false });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError) {
      console.error(`conformance doctor: ${error.message}`);
      return 2;
    }
    throw error;
  }
  let verdicts: InputVerdict[];
  forgetRateLimits();
  try {
    verdicts = await diagnoseInputs(config);
  } catch (error) {
    if (error instanceof TransportError) {
      console.error(`conformance doctor: the target stopped answering: ${terminalSafe(error.message)}`);
      return 2;
    }
    const limited = rateLimitStopIn(error);
    if (limited) {
      console.error(`conformance doctor: ${limited}: raise --retry-budget or lower --max-rps`);
      return 2;
    }
    throw error;
  }
  const { allChecks } = await import("../checks/index.js");
  // an input's detail may quote the target: its control characters are escaped (D-393), a user secret masked (D-392)
  console.log(
    terminalSafe(maskLiterals(renderDoctor(config.baseUrl, verdicts, allChecks).join("\n"), userSecrets(config))),
  );
  // a rate limit met while probing is said, with the budgets a run would wait within (D-380)
  console.log(
    rateLimitLine(rateLimitTally()) ??
      `Rate limits (D-380): none met; a run waits for a 429 (with Retry-After or a back-off) or a 503 with Retry-After up to ${config.retryBudgetMs / 1000} s per check and ${config.retryTotalMs / 1000} s in all${config.maxRps ? `, at most ${config.maxRps} requests a second` : ""}`,
  );
  return verdicts.some((v) => v.state === "wrong") ? 2 : 0;
}
