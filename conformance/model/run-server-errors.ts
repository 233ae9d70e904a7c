/**
 * The first read of a run that the interface allows and the target answered 500 (LAW-020), whichever check sent it:
 * a server error is the target failing, never its answer to a request it must serve (RFC 9110 §15.6.1). And the first
 * 5xx of the run whose body shows the target's insides (LAW-025, D-26).
 */
import type { Exchange } from "../target/http-exchange.js";
import { isAllowedRead } from "./allowed-read.js";
import { perRun } from "./per-run.js";

/** What in a body gives away how the server is built: a stack frame, a source file with its line, SQL or a driver's error. */
const internalDetails: { what: string; pattern: RegExp }[] = [
  { what: "a stack frame", pattern: /^\s*at [^\n]*(?:\(.+:\d+:\d+\)|:\d+:\d+)\s*$/m },
  { what: "a Python traceback", pattern: /Traceback \(most recent call last\)|^\s*File "[^"]+", line \d+/m },
  { what: "a source file and line", pattern: /[\w.-]+\.(?:ts|js|mjs|cjs|py|java|go|rb|php|cs|rs):\d+/ },
  // upper-case keywords only: "select a tenant from the list" is a sentence, not SQL
  { what: "SQL", pattern: /\b(?:SELECT\s[\s\S]{1,200}?\sFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET)\s/ },
  {
    what: "a database error",
    pattern:
      /SQLITE_[A-Z]+|violates (?:unique|foreign key|not-null) constraint|syntax error at or near|relation "[^"]+" does not exist/,
  },
];

/** The first kind of internal detail a body shows, if any. */
export function internalDetail(body: string): string | undefined {
  return internalDetails.find(({ pattern }) => pattern.test(body))?.what;
}

export class RunServerErrors {
  first: Exchange | undefined;
  leak: { exchange: Exchange; what: string } | undefined;

  /** Reads an answer to a request sent to `path` (relative to the base address): the first allowed read answered 500 is kept, and the first 5xx showing internal detail. */
  see(path: string, exchange: Exchange): void {
    const { status, body } = exchange.response;
    if (status < 500 || status > 599) return;
    const what = this.leak ? undefined : internalDetail(body);
    if (what) this.leak = { exchange, what };
    if (!this.first && status === 500 && isAllowedRead({ ...exchange.request, path })) this.first = exchange;
  }
}

/** The registry of a run: one per configuration, as runIds. */
export const runServerErrors = perRun(() => new RunServerErrors());
