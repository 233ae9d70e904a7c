/**
 * Preflight before any check (D-150, D-241, D-485): the target is reached, the base URL is the interface, the key is
 * accepted, and every id given is right. A setup mistake (exit 2, one line naming the flag) is called only when the
 * answers say so: a 401, 403 or 404 of the operation the input selects, or a connection that failed. Any other answer
 * (a redirect, a 5xx, bad framing, a body that does not parse) is the server's, and the run goes on to judge it.
 */

import { operation } from "../../contract/index.js";
import type { ConformanceConfig } from "../cli/run-config.js";
import { readBounded } from "./bounded-read.js";
import { TransportError } from "./http-exchange.js";
import { givenIds, type InputVerdict } from "./inputs.js";
import { keyHeader } from "./key-header.js";
import { rateLimitStopIn } from "./rate-limit.js";
import { maskLiterals, userSecrets } from "./redact.js";
import { connectionFailed, setupVerdict } from "./setup-verdict.js";

/** A setup mistake found before any check ran: the CLI prints the message on one line and exits 2. */
export class PreflightError extends Error {
  override name = "PreflightError";
}

/**
 * One probe answer: its status; or why nothing came back (unreachable: the connection failed); or why what came back
 * could not be read (unreadable: bad framing, the checks' to judge). What the body holds is the checks' too (D-241).
 */
export type ProbeAnswer = { status: number } | { unreachable: string } | { unreadable: string };

/** Longest wait for one probe request. */
const probeTimeoutMs = 5000;

/** The read-only operations the preflight asks: both list operations, safe on any target. */
const probeOperations = ["listOAuthProviders", "listDeployments"] as const;

/** Sends one GET probe with the configured key (and tenant unless `withTenant` is false). */
async function probeGet(
  config: ConformanceConfig,
  path: string,
  options: { withTenant?: boolean; apiKey?: string; tenantId?: string } = {},
): Promise<ProbeAnswer> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...config.headers,
    ...keyHeader(config, options.apiKey ?? config.apiKey),
  };
  const tenant = options.tenantId ?? config.tenantId;
  if (tenant && options.withTenant !== false) headers["X-Tenant-Id"] = tenant;
  let res: Response;
  try {
    res = await (config.fetch ?? fetch)(`${config.baseUrl.replace(/\/+$/, "")}${path}`, {
      headers,
      signal: AbortSignal.timeout(Math.min(config.timeoutMs, probeTimeoutMs)),
      redirect: "manual",
    });
  } catch (error) {
    if ((error as Error).name === "TimeoutError")
      return { unreachable: `no answer within ${Math.min(config.timeoutMs, probeTimeoutMs) / 1000} s` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return connectionFailed(cause?.code) ? { unreachable: why } : { unreadable: why };
  }
  try {
    // read whole: a body whose framing breaks after the status came is an answer, badly sent, the checks' to judge
    await readBounded(res, config.maxResponseBytes);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { unreadable: cause?.code ?? cause?.message ?? (error as Error).message };
  }
  return { status: res.status };
}

/**
 * What the answers of the probes say about the setup: undefined when they name no input (D-485). The base URL is
 * wrong when every list answers 404, the key when every list answers 401 or 403; a redirect, a 5xx, a body that is not
 * JSON or an answer that could not be read is the checks' to judge (the suite follows no redirect, D-391).
 */
export function diagnose(
  config: Pick<ConformanceConfig, "baseUrl" | "tenantId">,
  answers: readonly ProbeAnswer[],
  withoutTenant?: ProbeAnswer,
): string | undefined {
  const unreachable = answers.find((a): a is { unreachable: string } => "unreachable" in a);
  if (unreachable)
    return `cannot reach ${config.baseUrl}: ${unreachable.unreachable}: check --base-url (is the service running there?)`;
  if (!answers.every((a) => "status" in a && setupVerdict(a) === "wrong-input")) return undefined;
  const got = answers as readonly { status: number }[];
  // each status said once: "answered 401", not "401, 401"
  const statuses = [...new Set(got.map((a) => a.status))].join(", ");
  if (got.every((a) => a.status === 404))
    return `${config.baseUrl} does not serve the interface (its list operations answered ${statuses}): check --base-url (the root the contract's paths such as ${operation("listDeployments").path} are under)`;
  if (got.every((a) => a.status === 401 || a.status === 403)) {
    if (
      config.tenantId &&
      withoutTenant &&
      "status" in withoutTenant &&
      withoutTenant.status >= 200 &&
      withoutTenant.status < 300
    )
      return `every operation answered ${statuses} with X-Tenant-Id ${config.tenantId} and 2xx without it: check --tenant-id`;
    return `every operation answered ${statuses}: the key is not accepted: check --api-key${config.tenantId ? " (and --tenant-id)" : ""}`;
  }
  return undefined;
}

/** The lines that name each wrong id given, or none. */
function wrongIds(verdicts: readonly InputVerdict[]): string[] {
  const wrong = verdicts.filter((v) => v.state === "wrong");
  if (wrong.length === 0) return [];
  return [
    ...wrong.map((v) => `${v.flag} is wrong: ${v.detail}`),
    `fix ${wrong.map((v) => v.flag).join(", ")} or leave it out (deployment-conformance doctor tells what each input enables)`,
  ];
}

/** Runs the preflight (without the ids' checks when `ids` is false: doctor judges them itself); throws PreflightError with the lines to print. */
export async function preflight(config: ConformanceConfig, { ids = true } = {}): Promise<void> {
  const answers = await Promise.all(probeOperations.map((id) => probeGet(config, operation(id).path)));
  let withoutTenant: ProbeAnswer | undefined;
  if (config.tenantId && answers.every((a) => "status" in a && (a.status === 401 || a.status === 403)))
    withoutTenant = await probeGet(config, operation("listDeployments").path, { withTenant: false });
  const problem = diagnose(config, answers, withoutTenant);
  if (problem) throw new PreflightError(maskLiterals(problem, userSecrets(config)));
  if (!ids) return;
  let verdicts: InputVerdict[];
  try {
    verdicts = await givenIds(config);
  } catch (error) {
    // an answer that could not be read is judged by the checks (the inputs take it as no verdict): only a failed connection stops
    if (error instanceof TransportError && connectionFailed(error.code))
      throw new PreflightError(`${config.baseUrl} stopped answering during the preflight: ${error.message}`);
    const limited = rateLimitStopIn(error);
    if (limited) throw new PreflightError(`${limited}: raise --retry-budget or lower --max-rps`);
    throw error;
  }
  const wrong = wrongIds(verdicts);
  if (wrong.length > 0) throw new PreflightError(wrong.join("\n"));
}
