/**
 * The target stopped answering mid-run (D-151): a refused or reset connection confirmed by a second request
 * stops the run; every later check is "not run" (never a failure), and the CLI says so once and exits 2.
 */

import { operation } from "../../contract/index.js";
import type { ConformanceConfig } from "../cli/run-config.js";
import { CheckSkip } from "../runner/check.js";
import type { RunResult } from "../runner/result.js";
import { readBounded } from "./bounded-read.js";
import type { TransportError } from "./http-exchange.js";
import { keyHeader } from "./key-header.js";

/** Every verdict of a check the run could not do carries this text (skip reason or, through fast-check, failure). */
const targetGoneMarker = "not run: the target stopped answering";

/** Whether an error stops a check because of the target's setup (gone, full): "not run", never a verdict on it. */
export function isSetupStop(error: unknown): boolean {
  return error instanceof CheckSkip && error.reason.startsWith("not run: ");
}

/** Network errors that say nothing listens or the connection died (a slow answer is not one of them). */
const goneCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "EHOSTUNREACH"]);

/** Set once the target is known gone, in the process that runs the checks. */
let goneSince: string | undefined;

/** The check is not run because the target is gone. */
class TargetGone extends CheckSkip {
  constructor(since: string) {
    super(`${targetGoneMarker} (${since})`);
  }
}

/** A new run starts with the target taken as present (a program may run the suite more than once). */
export function forgetTargetGone(): void {
  goneSince = undefined;
}

/** Throws TargetGone when an earlier request found the target gone: called before each request. */
export function throwIfGone(): void {
  if (goneSince !== undefined) throw new TargetGone(goneSince);
}

/**
 * Called on a transport error: a refused or reset connection is confirmed by one more request (a GET of a list
 * operation); when that fails too, the target is gone and TargetGone is thrown, else the caller rethrows.
 */
export async function confirmGone(config: ConformanceConfig, error: TransportError): Promise<void> {
  if (error.code === undefined || !goneCodes.has(error.code)) return;
  try {
    const res = await (config.fetch ?? fetch)(
      `${config.baseUrl.replace(/\/+$/, "")}${operation("listOAuthProviders").path}`,
      {
        headers: { Accept: "application/json", ...config.headers, ...keyHeader(config, config.apiKey) },
        signal: AbortSignal.timeout(Math.min(config.timeoutMs, 5000)),
        // any answer, a redirect too, says the target is there: the key and -H headers never follow it elsewhere (D-391)
        redirect: "manual",
      },
    );
    await readBounded(res, config.maxResponseBytes);
    return;
  } catch (second) {
    const code = (second as { cause?: { code?: string } }).cause?.code ?? (second as Error).name;
    goneSince = `${error.code}, then ${code} on a second request`;
    throw new TargetGone(goneSince);
  }
}

/** The checks a run could not do because the target went away. */
export function notRunChecks(result: Pick<RunResult, "verdicts">): string[] {
  return result.verdicts
    .filter(
      (v) =>
        (v.status === "skip" && v.skipReason?.includes(targetGoneMarker)) ||
        (v.status === "fail" && v.failure?.message.includes(targetGoneMarker)),
    )
    .map((v) => v.id);
}

/** The few lines the CLI prints instead of the report when the target went away, or undefined when it did not. */
export function targetGoneReport(result: RunResult): string[] | undefined {
  const notRun = notRunChecks(result);
  if (notRun.length === 0) return undefined;
  const gone = new Set(notRun);
  const done = result.verdicts.filter((v) => !gone.has(v.id));
  const failed = done.filter((v) => v.status === "fail").map((v) => v.id);
  return [
    `conformance: ${result.target} stopped answering mid-run (connection refused or reset twice in a row); the run stopped (exit 2).`,
    `Not run (${notRun.length}): ${notRun.join(", ")}`,
    `Done before (${done.length}): ${done.filter((v) => v.status === "pass").length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(", ")})` : ""}, ${done.filter((v) => v.status === "skip").length} skipped.`,
  ];
}
