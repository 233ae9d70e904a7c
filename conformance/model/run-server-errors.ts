/**
 * The first read of a run that the interface allows and the target answered 500 (LAW-020), whichever check sent it:
 * a server error is the target failing, never its answer to a request it must serve (RFC 9110 §15.6.1).
 */
import type { Exchange } from "../target/http-exchange.js";
import { isAllowedRead } from "./allowed-read.js";
import { perRun } from "./per-run.js";

export class RunServerErrors {
  first: Exchange | undefined;

  /** Reads an answer to a request sent to `path` (relative to the base address): the first allowed read answered 500 is kept. */
  see(path: string, exchange: Exchange): void {
    if (this.first || exchange.response.status !== 500) return;
    if (isAllowedRead({ ...exchange.request, path })) this.first = exchange;
  }
}

/** The registry of a run: one per configuration, as runIds. */
export const runServerErrors = perRun(() => new RunServerErrors());
