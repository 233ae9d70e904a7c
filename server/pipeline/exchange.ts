/** The request and answer shapes of the pipeline (D-270): what an adapter (Koa, fetch) hands in and writes out, with no framework type. */
import type { Logger } from "pino";

/** One request as the pipeline reads it. */
export interface PipelineRequest {
  /** The method as sent, e.g. `GET`. */
  method: string;
  /** The path, still percent-encoded, without the query. */
  path: string;
  /** The query string without its `?`, still percent-encoded ("" when none). */
  search: string;
  /** The bytes of the request target as sent, for the 414 bound (D-115). */
  targetBytes: number;
  /** Header values by lower-case name; repeated ones joined as the adapter's HTTP layer joins them. */
  headers: Record<string, string | string[] | undefined>;
  /** The version of the request line (`1.1`, `1.0`, `0.9` for a line without one); undefined where no such line exists (fetch). */
  httpVersion: string | undefined;
  /** How many Host field lines the message carried (RFC 9112 §3.2); undefined where no such message exists (fetch). */
  hostFields: number | undefined;
  /** How many X-Api-Key field lines the message carried (D-397); undefined where no such message exists (fetch). */
  keyFields: number | undefined;
  /** The body's bytes, or undefined once more than `limit` bytes arrived (the rest is discarded). */
  readBody(limit: number): Promise<Uint8Array | undefined>;
  /** The body is refused unread: discard it (and close the connection where there is one). */
  discardBody(): void;
  /** The logger for lines about this request. */
  log(): Logger;
  /** Hears who calls, once authenticated (the access log's fields). */
  identified?(who: { organizationId: string; tenantId: string }): void;
}

/** A body sent in parts as they are produced (D-350): the adapter calls `close` once it is sent, failed or abandoned (a HEAD, a client gone). */
export interface StreamedBody {
  parts: AsyncIterable<string>;
  close(): void;
}

/** One answer: status, headers (Content-Type included) and a text body, a streamed one, or none. */
export interface PipelineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | StreamedBody | undefined;
}
