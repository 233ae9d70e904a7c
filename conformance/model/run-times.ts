/** The first created_at or updated_at any answer of a run showed later than the answer itself arrived (LAW-007). */
import type { RunConfig } from "../cli/run-config.js";
import type { Exchange } from "../target/http-exchange.js";
import { recordsOf } from "./run-ids.js";

/** A timestamp ahead of the answer that showed it: which, by how much, and the answer. */
interface AheadOfAnswer {
  what: string;
  value: string;
  aheadMs: number;
  exchange: Exchange;
}

export class RunTimes {
  first: AheadOfAnswer | undefined;

  constructor(private readonly toleranceMs: number) {}

  /** Reads an answer that arrived at `answeredAt` (ms since the epoch): a record cannot have been made or changed later. */
  see(exchange: Exchange, answeredAt: number): void {
    if (this.first) return;
    const answer = recordsOf(exchange);
    for (const record of answer?.records ?? [])
      for (const field of ["created_at", "updated_at"]) {
        const value = record[field];
        const at = typeof value === "string" ? Date.parse(value) : Number.NaN;
        if (at - answeredAt > this.toleranceMs) {
          this.first = {
            what: `${field} of ${answer!.kind} ${String(record.id)}`,
            value: String(value),
            aheadMs: at - answeredAt,
            exchange,
          };
          return;
        }
      }
  }
}

const runs = new WeakMap<RunConfig, RunTimes>();

/** The registry of a run: one per configuration, as runIds. */
export function runTimes(config: RunConfig): RunTimes {
  let times = runs.get(config);
  if (!times) {
    times = new RunTimes(config.clockToleranceMs);
    runs.set(config, times);
  }
  return times;
}
