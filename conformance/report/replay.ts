/** Console output of `replay`: the verdict of the one check and every exchange it made, in order. */
import type { RunResult } from "../runner/result.js";
import type { CheckExchange } from "./har.js";
import { terminalSafeDeep } from "./terminal-text.js";
import { exchangeText, failureText } from "./text.js";

export function renderReplay(given: RunResult, givenExchanges: readonly CheckExchange[]): string {
  // what came from the target reaches the terminal with its control characters escaped (D-393)
  const result = terminalSafeDeep(given);
  const exchanges = terminalSafeDeep(givenExchanges);
  const out = [`Replay of run ${result.runId} against ${result.target} (seed ${result.seed})`, ""];
  for (const v of result.verdicts) {
    const verdict = v.status === "pass" ? "passed" : v.status === "fail" ? "FAILED" : `skipped (${v.skipReason})`;
    out.push(`${v.id} [${v.level}] ${v.statement}: ${verdict}`);
    if (v.status === "fail") out.push("", failureText(v));
  }
  for (const e of result.errors) out.push(`runner error: ${e}`);
  out.push("", `${exchanges.length} exchange${exchanges.length === 1 ? "" : "s"}:`);
  exchanges.forEach(({ exchange }, index) => {
    out.push("", `#${index + 1} ${exchange.operation ?? "(no contract operation)"} · ${exchange.durationMs} ms`);
    out.push(...exchangeText(exchange));
  });
  return out.join("\n");
}
