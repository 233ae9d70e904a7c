/**
 * Preflight before any check (D-150, D-241): the target is reached, the base URL is the interface (judged by what
 * answers, not by a header), the key is accepted, and every id given is right: the integrations list repositories,
 * the other tenant is reached, the other key is another organization. Each setup mistake is a line naming the flag
 * to fix (exit 2), decided within a few seconds.
 */

import { operation } from "../../contract/index.js";
import type { ConformanceConfig } from "../cli/run-config.js";
import { terminalSafe } from "../report/terminal-text.js";
import { parseJsonText, readBounded } from "./bounded-read.js";
import { TransportError } from "./http-exchange.js";
import { givenIds, type InputVerdict } from "./inputs.js";
import { keyHeader } from "./key-header.js";
import { rateLimitStopIn } from "./rate-limit.js";
import { maskLiterals, userSecrets } from "./redact.js";

/** A setup mistake found before any check ran: the CLI prints the message on one line and exits 2. */
export class PreflightError extends Error {
  override name = "PreflightError";
}

/** One probe answer: the status, whether the body was JSON and where a redirect pointed, or why nothing came back. */
export type ProbeAnswer = { status: number; json: boolean; location?: string } | { unreachable: string };

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
  try {
    const res = await (config.fetch ?? fetch)(`${config.baseUrl.replace(/\/+$/, "")}${path}`, {
      headers,
      signal: AbortSignal.timeout(Math.min(config.timeoutMs, probeTimeoutMs)),
      redirect: "manual",
    });
    const { text } = await readBounded(res, config.maxResponseBytes);
    // a JSON body is the interface whatever its Content-Type says: a wrong header is the server's to fail, not setup (D-241)
    let json = false;
    try {
      parseJsonText(text);
      json = true;
    } catch {
      json = false;
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
    return { status: res.status, json, ...(location !== null ? { location } : {}) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      unreachable:
        (error as Error).name === "TimeoutError"
          ? `no answer within ${Math.min(config.timeoutMs, probeTimeoutMs) / 1000} s`
          : (cause?.code ?? cause?.message ?? (error as Error).message),
    };
  }
}

/** What the answers of the probes say about the setup: undefined when the target looks like the interface and takes the key. */
export function diagnose(
  config: Pick<ConformanceConfig, "baseUrl" | "tenantId">,
  answers: readonly ProbeAnswer[],
  withoutTenant?: ProbeAnswer,
): string | undefined {
  const unreachable = answers.find((a): a is { unreachable: string } => "unreachable" in a);
  if (unreachable)
    return `cannot reach ${config.baseUrl}: ${unreachable.unreachable}: check --base-url (is the service running there?)`;
  const got = answers as readonly { status: number; json: boolean; location?: string }[];
  const statuses = got.map((a) => a.status).join(", ");
  // the suite follows no redirect (D-391): a base URL that redirects is a setup mistake, shown with where it points
  const redirected = got.find((a) => a.location !== undefined);
  if (redirected && got.every((a) => a.status >= 300 && a.status < 400))
    return `${config.baseUrl} redirects (${statuses}) to ${terminalSafe(redirected.location!)}; the suite follows no redirect, so it sends no key there: check --base-url (give the address the redirect names, if you trust it)`;
  if (
    got.every(
      (a) =>
        a.status === 404 ||
        a.status === 405 ||
        // a 204 is an answer of the interface's paths without a body (an empty list so answered is the checks' to judge)
        (a.status < 500 && a.status !== 204 && !a.json) ||
        (a.status >= 300 && a.status < 400),
    )
  )
    return `${config.baseUrl} does not serve the interface (its list operations answered ${statuses}${got.some((a) => !a.json) ? " without a JSON body" : ""}): check --base-url (the root the contract's paths such as ${operation("listDeployments").path} are under)`;
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
    if (error instanceof TransportError)
      throw new PreflightError(`${config.baseUrl} stopped answering during the preflight: ${error.message}`);
    const limited = rateLimitStopIn(error);
    if (limited) throw new PreflightError(`${limited}: raise --retry-budget or lower --max-rps`);
    throw error;
  }
  const wrong = wrongIds(verdicts);
  if (wrong.length > 0) throw new PreflightError(wrong.join("\n"));
}
