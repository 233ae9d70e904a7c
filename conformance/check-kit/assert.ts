/** Assertion helpers of the checks: each failure names the rule and carries the exchange that shows it. */
import { CheckFailure } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** Fails unless the condition holds. */
export function ensure(condition: unknown, reason: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new CheckFailure(reason, exchange);
}

/** Fails unless the answer is a 2xx. */
export function expect2xx(exchange: Exchange, what: string): void {
  const s = exchange.response.status;
  ensure(s >= 200 && s < 300, `${what}: expected a 2xx answer, got ${s}`, exchange);
}

/** Fails unless the answer has exactly this status. */
export function expectStatus(exchange: Exchange, want: number, what: string): void {
  ensure(exchange.response.status === want, `${what}: expected ${want}, got ${exchange.response.status}`, exchange);
}

/** Fails unless the answer is a 4xx (a client error, not a success and not a server failure). */
export function expect4xx(exchange: Exchange, what: string): void {
  const s = exchange.response.status;
  ensure(s >= 400 && s < 500, `${what}: expected a 4xx answer, got ${s}`, exchange);
}

/** The JSON body as an object, or a failure. */
export function jsonObject(exchange: Exchange, what: string): Record<string, unknown> {
  const j = exchange.json;
  ensure(j !== null && typeof j === "object" && !Array.isArray(j), `${what}: expected a JSON object body`, exchange);
  return j as Record<string, unknown>;
}

/** The JSON body as an array, or a failure. */
export function jsonArray(exchange: Exchange, what: string): unknown[] {
  ensure(Array.isArray(exchange.json), `${what}: expected a JSON array body`, exchange);
  return exchange.json as unknown[];
}

/** Whether a value is a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
