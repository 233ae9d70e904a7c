/**
 * The first answers of a run whose body is no well-sent JSON text (LAW-022 to LAW-024), whichever check got them:
 * bytes that are not UTF-8, a leading byte order mark, a member name repeated in one object.
 */
import type { Exchange } from "../target/http-exchange.js";
import { perRun } from "./per-run.js";

export class RunJsonTexts {
  notUtf8: Exchange | undefined;
  byteOrderMark: Exchange | undefined;
  repeated: { exchange: Exchange; name: string } | undefined;

  /** Reads one answer of the run. */
  see(exchange: Exchange): void {
    const { response } = exchange;
    if (!this.notUtf8 && response.notUtf8) this.notUtf8 = exchange;
    if (!this.byteOrderMark && response.body.startsWith("\ufeff")) this.byteOrderMark = exchange;
    if (!this.repeated && response.repeatedMember !== undefined)
      this.repeated = { exchange, name: response.repeatedMember };
  }
}

/** The registry of a run: one per configuration. */
export const runJsonTexts = perRun(() => new RunJsonTexts());
