/**
 * The first created_at or updated_at any answer of a run showed later than the answer itself arrived, or a record's
 * created_at after its updated_at (LAW-007).
 */
import type { Exchange } from "../target/http-exchange.js";
import { perRun } from "./per-run.js";
import { recordsOf } from "./run-ids.js";

/** A record's times that cannot be: why, and the answer that showed them. */
interface ImpossibleTimes {
  why: string;
  exchange: Exchange;
}

export class RunTimes {
  first: ImpossibleTimes | undefined;

  constructor(private readonly toleranceMs: number) {}

  /** Reads an answer that arrived at `answeredAt` (ms since the epoch): a record cannot have been made or changed later. */
  see(exchange: Exchange, answeredAt: number): void {
    if (this.first) return;
    const answer = recordsOf(exchange);
    for (const record of answer?.records ?? []) {
      const who = `${answer!.kind} ${String(record.id)}`;
      const created = Date.parse(String(record.created_at));
      if (created > Date.parse(String(record.updated_at))) {
        this.first = {
          why: `${who} has created_at ${String(record.created_at)} after its updated_at ${String(record.updated_at)}`,
          exchange,
        };
        return;
      }
      for (const field of ["created_at", "updated_at"]) {
        const value = record[field];
        const ahead = (typeof value === "string" ? Date.parse(value) : Number.NaN) - answeredAt;
        if (ahead > this.toleranceMs) {
          this.first = {
            why: `${field} of ${who} is ${String(value)}, ${Math.round(ahead / 1000)} s after the answer that showed it arrived (beyond --clock-tolerance-ms ${this.toleranceMs}): a record cannot have been made or changed later than it was shown`,
            exchange,
          };
          return;
        }
      }
    }
  }
}

/** The registry of a run: one per configuration, as runIds. */
export const runTimes = perRun((config) => new RunTimes(config.clockToleranceMs));
