/** HTTP exchanges with the target: the request recorded with secrets redacted, the answer as received and as shown; a failure shows what was sent and what came back. */
import { defaultMaxResponseValues, parseJsonText, readBounded } from "./bounded-read.js";
import { redactBody, redactHeaders, redactText } from "./redact.js";
import { repeatedMember } from "./repeated-member.js";

/** A request as it is shown in reports: key and secrets redacted. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  bodyTruncated?: boolean;
  /** The body was not UTF-8: `body` writes each byte above 0x7f as \xNN and a backslash as \\. */
  bodyEscaped?: boolean;
  /** Which configured key the X-Api-Key header carried, so the curl command can refer to it. */
  keyRef?: "main" | "other" | "literal" | "none";
}

/**
 * A response as received: what the checks judge. Reports show `shown` in place of its headers and body
 * (shownExchange), so a secret that happens to be part of a header or of the body (a client_secret of "appl" inside
 * application/json) never changes what is judged.
 */
interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body's text (a parsed JSON body written again, as shown) up to the shown length. */
  body: string;
  /** The headers and body with secrets redacted (D-392), which reports show. */
  shown?: { headers: Record<string, string>; body: string };
  bodyTruncated?: boolean;
  /** The answer went on past --max-response-bytes (this bound) and was not read further (D-391). */
  cutAtBytes?: number;
  /** The body held more JSON values than this bound (--max-response-values) and was not parsed (D-460). */
  cutAtValues?: number;
  /** The body's bytes were not UTF-8 (RFC 8259 §8.1); `body` shows U+FFFD in place of the bad ones. */
  notUtf8?: boolean;
  /** A member name the body gives twice in one object (RFC 8259 §4), read before `body` was redacted and re-written. */
  repeatedMember?: string;
}

/** One request and its answer. `json` is the parsed body (undefined when it is not JSON). */
export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
  json: unknown;
  /** When the request was sent (ISO 8601), for the HAR file. */
  startedAt?: string;
  durationMs: number;
  /** The contract operation the request exercised, if any. */
  operation?: string;
}

/** Largest body kept in a report; longer ones are cut (a 1 MiB test body must not fill the report). */
const maxShownBody = 4096;
/** What is read past the shown part of a body redacted as text, so a secret that crosses the cut is still masked whole. */
const shownMargin = 1024;

/** What `send` needs: a fully built request. */
interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the body in chunks with no Content-Length, as a client streaming it does (RFC 9112 §6.1, §7.1). */
  streamed?: boolean;
  keyRef: RecordedRequest["keyRef"];
  timeoutMs: number;
  /** The most bytes of the answer's body read (D-391). */
  maxBytes: number;
  /** The most JSON values of the answer's body parsed (D-460); 500,000 when not given. */
  maxValues?: number;
  /** The least pace of the answer's body once its headers came, in bytes a second (D-461); none when not given. */
  minBytesPerSecond?: number;
  /** Literal secrets to mask in the recorded headers and bodies: the user's (keys, -H values, D-392) and those sent. */
  secrets?: string[];
  /** Names of the headers the user gave with -H: their values are redacted as credentials (D-392). */
  userHeaders?: string[];
  /** The fetch to send with (an in-process target's, D-360); the global one otherwise. */
  fetch?: typeof fetch;
}

/** Thrown when the target cannot be reached or does not answer in time. */
export class TransportError extends Error {
  override name = "TransportError";
  constructor(
    message: string,
    readonly request: RecordedRequest,
    /** The network error code (ECONNREFUSED, ECONNRESET, ...), "timeout", or "slow" (the body fell below the least pace). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Sends a request and records it. Never throws on an HTTP status; throws TransportError on a network failure. */
export async function sendHttp(out: OutgoingRequest): Promise<Exchange> {
  const recordedRequest: RecordedRequest = {
    method: out.method,
    url: out.url,
    // a streamed body is shown with the framing fetch gave it, so the printed curl command sends it chunked too
    headers: {
      ...redactHeaders(out.headers, out.userHeaders, out.secrets),
      ...(out.streamed ? { "Transfer-Encoding": "chunked" } : {}),
    },
    keyRef: out.keyRef,
    ...(out.body !== undefined ? recordedBody(out.body, out.secrets) : {}),
  };
  const startedAt = new Date().toISOString();
  const started = performance.now();
  let response: Response;
  let text: string;
  let cut: boolean;
  let notUtf8: boolean | undefined;
  let tooMany: boolean | undefined;
  const maxValues = out.maxValues ?? defaultMaxResponseValues;
  const slow = new AbortController();
  try {
    const signal = AbortSignal.any([AbortSignal.timeout(out.timeoutMs), slow.signal]);
    response = await (out.fetch ?? fetch)(out.url, {
      method: out.method,
      headers: out.headers,
      ...(out.streamed && out.body !== undefined
        ? { body: chunksOf(out.body), duplex: "half" as const }
        : { body: out.body as BodyInit | undefined }),
      signal,
      // a redirect is the target's answer, judged as such: the key and -H headers never go to another address (D-391)
      redirect: "manual",
    });
    const rate = out.minBytesPerSecond;
    ({
      text,
      cut,
      notUtf8,
      tooManyValues: tooMany,
    } = await readBounded(response, out.maxBytes, {
      maxValues,
      ...(rate === undefined ? {} : { rate: { bytesPerSecond: rate, abort: () => slow.abort() } }),
    }));
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (error as Error).name === "TimeoutError";
    const tooSlow = slow.signal.aborted;
    throw new TransportError(
      `${out.method} ${out.url}: ${
        tooSlow
          ? `the body came slower than --min-transfer-rate ${out.minBytesPerSecond} bytes a second (D-461)`
          : timedOut
            ? `no answer within ${out.timeoutMs} ms`
            : (cause?.code ?? cause?.message ?? (error as Error).message)
      }`,
      recordedRequest,
      tooSlow ? "slow" : timedOut ? "timeout" : cause?.code,
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // a body of more values than the bound is read no further nor parsed: its parse and every reading of it would cost the run (D-460)
  let json: unknown;
  try {
    json = text.length > 0 && !cut && !tooMany ? parseJsonText(text) : undefined;
  } catch {
    json = undefined;
  }
  // the body as judged is written again from the one parse (a body with a byte order mark keeps it, as read, for
  // HDR-006); a cut or too large body is read as text, never parsed (D-460). The shown copy redacts the part of that
  // text a report keeps, so a page is serialized once
  const written = json !== undefined && !text.startsWith("\ufeff");
  const judgedText = written ? JSON.stringify(json) : text;
  const judgedBody = shown(judgedText);
  const shownBody = shown(
    written || cut || tooMany
      ? redactText(judgedText.slice(0, maxShownBody + shownMargin), out.secrets)
      : redactBody(text, out.secrets),
  );
  // the body as sent: its redacted copy is parsed and written again, which keeps one of two members of one name
  const repeated = json === undefined ? undefined : repeatedMember(text);
  return {
    request: recordedRequest,
    response: {
      status: response.status,
      headers,
      body: judgedBody.body,
      shown: { headers: redactHeaders(headers, [], out.secrets), body: shownBody.body },
      ...(shownBody.bodyTruncated || judgedBody.bodyTruncated || cut ? { bodyTruncated: true } : {}),
      ...(cut ? { cutAtBytes: out.maxBytes } : {}),
      ...(tooMany ? { cutAtValues: maxValues } : {}),
      ...(notUtf8 ? { notUtf8: true } : {}),
      ...(repeated !== undefined ? { repeatedMember: repeated } : {}),
    },
    json,
    startedAt,
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * A body as a report shows it, secrets redacted: its text, or when it is not UTF-8 each byte above 0x7f written \xNN
 * and a backslash \\ (so the printed curl command can send the same bytes).
 */
function recordedBody(
  body: string | Uint8Array,
  secrets: OutgoingRequest["secrets"],
): Pick<RecordedRequest, "body" | "bodyTruncated" | "bodyEscaped"> {
  if (typeof body === "string") return shown(redactBody(body, secrets));
  try {
    return shown(redactBody(new TextDecoder("utf-8", { fatal: true }).decode(body), secrets));
  } catch {
    const escaped = Array.from(body, (byte) =>
      byte === 0x5c ? "\\\\" : byte < 0x80 ? String.fromCharCode(byte) : `\\x${byte.toString(16)}`,
    ).join("");
    return { ...shown(redactBody(escaped, secrets)), bodyEscaped: true };
  }
}

/** The body as a stream of parts of at most 64 KiB, which fetch sends chunked, declaring no length. */
function chunksOf(body: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const part = 64 * 1024;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + part));
        at += part;
      }
    },
  });
}

/** An exchange as reports show it: the response's redacted headers and body in place of those received. */
export function shownExchange(exchange: Exchange): Exchange {
  const { shown: redacted, ...response } = exchange.response;
  return redacted ? { ...exchange, response: { ...response, ...redacted } } : exchange;
}

function shown(body: string): { body: string; bodyTruncated?: boolean } {
  // a copy, not a slice: V8 keeps a slice's whole parent alive, so each kept exchange would hold its 8 MiB answer (D-460)
  return body.length > maxShownBody
    ? { body: `${Array.from(body.slice(0, maxShownBody)).join("")}…`, bodyTruncated: true }
    : { body };
}

/** Builds the URL of a path and query on a base URL. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | boolean | undefined> | string,
): string {
  let url = `${baseUrl.replace(/\/+$/, "")}${path}`;
  if (typeof query === "string") return query.length > 0 ? `${url}?${query}` : url;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}
