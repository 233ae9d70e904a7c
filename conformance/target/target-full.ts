/**
 * A target that refuses creates for a quota or limit it documents (D-242): a create answered 409 or 429 whose
 * problem names a quota or a limit (the reference server's 500 OAuth providers per organization, D-112) is a setup
 * problem, not a bug. The check that met it and every later one that meets it are "not run" (never a failure);
 * the CLI says once that the organization is full and exits 2.
 */
import { CheckSkip } from "../runner/check.js";
import type { RunResult } from "../runner/result.js";
import type { Exchange } from "./http-exchange.js";

/** Every verdict of a check stopped by a full target carries this text. */
const targetFullMarker = "not run: the target is full";

/** Words by which a refusal names a quota or a limit. */
const namesALimit = /\bquota\b|\blimits?\b|\bthe most\b|\bmaximum\b|\bat most\b|\btoo many\b/i;

/** What a refused create says about a quota or limit, or undefined when the answer is no such refusal. */
export function quotaRefusal(exchange: Exchange): string | undefined {
  const { status } = exchange.response;
  if (exchange.request.method !== "POST" || (status !== 409 && status !== 429)) return undefined;
  const body = exchange.json as { title?: unknown; detail?: unknown; type?: unknown } | undefined;
  const said = [body?.detail, body?.title, body?.type].filter((v): v is string => typeof v === "string");
  const naming = said.find((text) => namesALimit.test(text));
  return naming === undefined ? undefined : `${status}: ${naming}`;
}

/** Called on every answer: a quota refusal stops the check as "not run" (CheckSkip). */
export function throwIfFull(exchange: Exchange): void {
  const refusal = quotaRefusal(exchange);
  if (refusal === undefined) return;
  throw new CheckSkip(`${targetFullMarker} (${refusal})`);
}

/** The reason a check was not run when what it threw carries a full target's stop (also through fast-check's own error), else undefined. */
export function fullStopIn(error: unknown): string | undefined {
  const message = error instanceof CheckSkip ? error.reason : error instanceof Error ? error.message : "";
  const at = message.indexOf(targetFullMarker);
  if (at === -1) return undefined;
  return message.slice(at).split("\n")[0];
}

/** The lines the CLI prints after the report when the target was full, or undefined when it was not. */
export function targetFullReport(result: Pick<RunResult, "verdicts">): string[] | undefined {
  const notRun = result.verdicts.filter((v) => v.status === "skip" && v.skipReason?.startsWith(targetFullMarker));
  if (notRun.length === 0) return undefined;
  const said = /\(([^)]*)\)/.exec(notRun[0]!.skipReason ?? "")?.[1] ?? "a quota or limit";
  return [
    `conformance: the organization is full: use a fresh one (another organization's --api-key, or a fresh target). The target refused a create for a limit it documents (${said}).`,
    `Not run for it (${notRun.length}, not failures): ${notRun.map((v) => v.id).join(", ")}. Exit 2: a setup problem, not a verdict.`,
  ];
}
