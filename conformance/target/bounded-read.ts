/**
 * The suite's careful reading of an answer (D-391): never more than a bound of bytes (`--max-response-bytes`,
 * 8 MiB by default). Past the bound the read stops and the stream is cancelled, so an answer that never ends
 * holds no more memory than the bound.
 */

/** The default bound of one answer's body. */
export const defaultMaxResponseBytes = 8 * 1024 * 1024;

/**
 * The default bound of the JSON values one answer's body may hold (D-460): a legal page of 100 deployments at the
 * contract's largest holds well under it; 8 MiB of `{},` holds 2.8 million, whose reading and parse would take the
 * run's memory and time.
 */
export const defaultMaxResponseValues = 500_000;

/** The pace an answer's body must keep once its headers came, after a first second (D-461). */
interface TransferRate {
  /** Bytes a second at least. */
  bytesPerSecond: number;
  /** Aborts the read: the caller's request is ended with a "too slow" reason. */
  abort(): void;
}

/** The grace before the body's pace is judged: a body that starts late but comes at once is no slow answer. */
const rateGraceMs = 1000;

/** A body as read: its text (up to the bound), whether the answer went on past the bound, and past the values' bound. */
interface BoundedBody {
  text: string;
  cut: boolean;
  /** The body held more JSON values than `maxValues`: the read stopped there (D-460). */
  tooManyValues?: boolean;
  /** The bytes read whole were not UTF-8 (RFC 8259 §8.1): the text holds U+FFFD in place of the bad ones. */
  notUtf8?: boolean;
}

/** What a read may take besides its bytes: JSON values (counted as the text comes) and a least pace. */
interface ReadBounds {
  maxValues?: number;
  rate?: TransferRate;
}

/**
 * Reads `response`'s body up to `maxBytes`, then cancels the rest. With `maxValues`, a body that holds more JSON values
 * is read no further (D-460). With `rate`, a body that falls behind `rate.bytesPerSecond` (counted from now, after a
 * first second) is aborted through `rate.abort` (D-461).
 */
export async function readBounded(
  response: Response,
  maxBytes: number,
  { maxValues, rate }: ReadBounds = {},
): Promise<BoundedBody> {
  const body = response.body;
  if (!body) return { text: "", cut: false };
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => {});
    return { text: "", cut: true };
  }
  const reader = body.getReader();
  const headersAt = performance.now();
  let watchdog: NodeJS.Timeout | undefined;
  // one timer, moved on at each chunk to when the bytes so far would fall behind the pace: a stalled body is caught too
  let read = 0;
  const pace = (bytes: number) => {
    read = bytes;
    if (!rate) return;
    clearTimeout(watchdog);
    const dueMs = headersAt + rateGraceMs + (bytes * 1000) / rate.bytesPerSecond - performance.now();
    // when due, the bytes that came meanwhile are read first (setImmediate runs after pending I/O): an event loop
    // blocked by the suite's own work (a parse) fires the timer late, never for a body that did come
    watchdog = setTimeout(() => setImmediate(() => read === bytes && rate.abort()), Math.max(0, dueMs));
  };
  try {
    return await readChunks(reader, maxBytes, pace, maxValues);
  } finally {
    clearTimeout(watchdog);
  }
}

async function readChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  pace: (bytes: number) => void,
  maxValues: number | undefined,
): Promise<BoundedBody> {
  const counter = new ValueCounter();
  // a byte order mark is kept in the text, so HDR-006 can see it (RFC 8259 §8.1); the JSON parse passes over it
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  // the same bytes through a strict decoder tell an answer that is not UTF-8 from one that holds U+FFFD itself
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let utf8 = true;
  const judge = (chunk?: Uint8Array) => {
    if (!utf8) return;
    try {
      strict.decode(chunk, { stream: chunk !== undefined });
    } catch {
      utf8 = false;
    }
  };
  const parts: string[] = [];
  let bytes = 0;
  pace(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > maxBytes) {
      parts.push(decoder.decode(value.subarray(0, maxBytes - bytes), { stream: true }));
      await reader.cancel().catch(() => {});
      return { text: parts.join("") + decoder.decode(), cut: true };
    }
    bytes += value.byteLength;
    pace(bytes);
    judge(value);
    const part = decoder.decode(value, { stream: true });
    parts.push(part);
    // past the values' bound the rest is not read: it would be neither parsed nor shown
    if (maxValues !== undefined && counter.feed(part, maxValues) > maxValues) {
      await reader.cancel().catch(() => {});
      return { text: parts.join(""), cut: false, tooManyValues: true };
    }
  }
  judge();
  parts.push(decoder.decode());
  return { text: parts.join(""), cut: false, ...(utf8 ? {} : { notUtf8: true }) };
}

/** Parses a body's text as JSON, passing over a leading byte order mark as RFC 8259 §8.1 lets a parser (HDR-006 judges it). */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text.startsWith("\ufeff") ? text.slice(1) : text);
}

/**
 * Counts the JSON values of a body's text as it is read, part by part, without parsing it (D-460): arrays, objects,
 * strings, numbers and literals at any depth. A key is a string followed by a colon, so it is not counted. A text that
 * is not JSON gets a count too; the parse decides whether it is JSON.
 */
class ValueCounter {
  values = 0;
  private inString = false;
  private escaped = false;
  private inScalar = false;

  /** Reads one more part of the text; the count so far, which stops growing once past `most`. */
  feed(text: string, most: number): number {
    for (let i = 0; i < text.length && this.values <= most; i += 1) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      const scalar =
        (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || c === 0x45;
      if (scalar) {
        if (!this.inScalar) this.values += 1;
        this.inScalar = true;
        continue;
      }
      this.inScalar = false;
      // a string, an array or an object is one value; the colon after a key takes the key back
      if (c === 0x22) {
        this.inString = true;
        this.values += 1;
      } else if (c === 0x5b || c === 0x7b) this.values += 1;
      else if (c === 0x3a) this.values -= 1;
    }
    return this.values;
  }
}

/** How many JSON values a whole text holds, counted no further than `most + 1`. */
export function countJsonValues(text: string, most: number): number {
  return new ValueCounter().feed(text, most);
}

/** The line that says an answer held more values than the bound, naming the flag that sets it. */
export function tooManyValuesMessage(maxValues: number): string {
  return `the answer's body holds more than --max-response-values ${maxValues} JSON values; the suite did not parse it (D-460)`;
}

/** The line that says an answer was cut at the bound, naming the flag that sets it. */
export function cutMessage(maxBytes: number): string {
  return `the answer's body went on past --max-response-bytes ${maxBytes} bytes; the suite stopped reading it (D-391)`;
}
