/** Counts the (operation, status) pairs of a check's exchanges: what the coverage matrix and the weak-run warnings read. */
import type { Exchange } from "../target/http-exchange.js";
import type { Answer } from "./verdict.js";

/** One entry per distinct (operation, status), in the order first seen. */
export function answersOf(exchanges: readonly Pick<Exchange, "operation" | "response">[]): Answer[] {
  const byKey = new Map<string, Answer>();
  for (const exchange of exchanges) {
    const key = `${exchange.operation ?? ""} ${exchange.response.status}`;
    const found = byKey.get(key);
    if (found) found.count += 1;
    else
      byKey.set(key, {
        ...(exchange.operation ? { operation: exchange.operation } : {}),
        status: exchange.response.status,
        count: 1,
      });
  }
  return [...byKey.values()];
}
