/**
 * No verdict at MUST (D-180): an input only a decision makes valid (a create body from the per-source table of
 * D-48, a status filter value of D-07) that the target refuses says nothing about the interface spec, so a MUST
 * check is skipped with a reason naming the SHOULD check that judges the refusal; at SHOULD the refusal fails.
 */

import type { Source } from "../model/data.js";
import type { Exchange } from "../target/http-exchange.js";
import { type CheckContext, CheckSkip } from "./check.js";

/** Every no-verdict skip reason starts with this; the run's warnings count them (coverage/warnings.ts). */
export const noVerdictPrefix = "no verdict at MUST";

/** The SHOULD checks that judge whether the per-source body of D-48 of each source is accepted. */
export const bodyAcceptedBy: Record<Source, string> = {
  internal_template: "DEP-CREATE-029",
  internal_container: "DEP-CREATE-030",
  internal_source: "DEP-CREATE-031",
  codehost: "DEP-CREATE-032",
  external_container: "DEP-CREATE-033",
};

/** The SHOULD check that judges whether the status filter takes each value of the status enum (D-07). */
export const statusValuesJudgedBy = "DEP-LIST-039";

/** Client errors that are about the credentials or the path, never about the input: those are judged, not excused. */
const notAboutTheInput = new Set([401, 403, 404, 405]);

/** A refusal of the input: a 4xx other than 401, 403, 404, 405 (the interface spec states no error status). */
export function isRefusal(exchange: Exchange): boolean {
  const status = exchange.response.status;
  return status >= 400 && status < 500 && !notAboutTheInput.has(status);
}

/** Whether an error is a no-verdict skip. */
export function isNoVerdict(error: unknown): boolean {
  return error instanceof CheckSkip && error.reason.startsWith(noVerdictPrefix);
}

/**
 * At MUST, skips the check when the target refused `what` (an input drawn from a decision); otherwise returns and
 * the caller judges the answer (at SHOULD a refusal then fails).
 */
export function noVerdictWhenRefused(ctx: CheckContext, exchange: Exchange, what: string, judgedBy: string): void {
  if (ctx.level === "MUST" && isRefusal(exchange))
    ctx.skip(
      `${noVerdictPrefix}: the target refused ${what} (${exchange.response.status}), an input of a decision, not of the interface spec; ${judgedBy} judges it at SHOULD`,
    );
}

/** At MUST, skips the check when the target refused a create body of `source` (which fields it requires is D-48). */
export function noVerdictWhenBodyRefused(ctx: CheckContext, exchange: Exchange, source: unknown): void {
  const judgedBy = bodyAcceptedBy[source as Source];
  if (judgedBy) noVerdictWhenRefused(ctx, exchange, `the ${String(source)} body of the per-source table`, judgedBy);
}

/**
 * Judges each item in turn; an item that comes to no verdict is noted and the others are still judged. The check is
 * skipped (no verdict) only when every item came to none.
 */
export async function judgeEach<T>(ctx: CheckContext, items: T[], judge: (item: T) => Promise<void>): Promise<void> {
  const reasons: string[] = [];
  for (const item of items) {
    try {
      await judge(item);
    } catch (error) {
      if (!isNoVerdict(error)) throw error;
      reasons.push((error as CheckSkip).reason);
    }
  }
  for (const reason of reasons) ctx.note(reason);
  if (items.length > 0 && reasons.length === items.length) ctx.skip(reasons[0]!);
}
