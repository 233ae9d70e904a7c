/**
 * The suite's careful reading of an answer (D-391): never more than a bound of bytes (`--max-response-bytes`,
 * 8 MiB by default). Past the bound the read stops and the stream is cancelled, so an answer that never ends
 * holds no more memory than the bound.
 */

/** The default bound of one answer's body. */
export const defaultMaxResponseBytes = 8 * 1024 * 1024;

/** A body as read: its text (up to the bound), and whether the answer went on past the bound. */
interface BoundedBody {
  text: string;
  cut: boolean;
}

/** Reads `response`'s body up to `maxBytes`, then cancels the rest. */
export async function readBounded(response: Response, maxBytes: number): Promise<BoundedBody> {
  const body = response.body;
  if (!body) return { text: "", cut: false };
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => {});
    return { text: "", cut: true };
  }
  const reader = body.getReader();
  // a byte order mark is kept in the text, so HDR-006 can see it (RFC 8259 §8.1); the JSON parse passes over it
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > maxBytes) {
      parts.push(decoder.decode(value.subarray(0, maxBytes - bytes), { stream: true }));
      await reader.cancel().catch(() => {});
      return { text: parts.join("") + decoder.decode(), cut: true };
    }
    bytes += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return { text: parts.join(""), cut: false };
}

/** Parses a body's text as JSON, passing over a leading byte order mark as RFC 8259 §8.1 lets a parser (HDR-006 judges it). */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text.startsWith("\ufeff") ? text.slice(1) : text);
}

/** The line that says an answer was cut at the bound, naming the flag that sets it. */
export function cutMessage(maxBytes: number): string {
  return `the answer's body went on past --max-response-bytes ${maxBytes} bytes; the suite stopped reading it (D-391)`;
}
