/** What the LAW-* checks share: their budget (a share of --fuzz-runs) and a send that keeps the wall-clock window of each request. */
import type { CheckContext, SendRequest } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** Generated rounds per law: a twenty-fifth of --fuzz-runs, at least 2 (each round sends up to 16 requests, D-370). */
export const lawRuns = (ctx: CheckContext): number => Math.max(2, Math.round(ctx.config.fuzzRuns / 25));

/** One exchange with the instants (ms since the epoch) just before it was sent and just after its answer was read. */
export interface Timed {
  exchange: Exchange;
  invokedAt: number;
  answeredAt: number;
}

/** Sends a request and records its wall-clock window. */
export async function timed(ctx: CheckContext, request: SendRequest): Promise<Timed> {
  const invokedAt = Date.now();
  const exchange = await ctx.send(request);
  return { exchange, invokedAt, answeredAt: Date.now() };
}
