/**
 * A raw HTTP/1.1 client over a TCP socket for the fuzz run: it sends exactly the bytes it is
 * given (bad UTF-8, duplicate or huge headers, unknown methods) that fetch and node:http refuse to send,
 * and parses the answer itself.
 */
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names lower-cased, in order, duplicates kept. */
  headers: [string, string][];
  body: Buffer;
}

type RawOutcome = { kind: "answer"; answer: RawAnswer } | { kind: "no-answer"; reason: string; bytes: number };

const headerEnd = Buffer.from("\r\n\r\n");

/** The value of a header (the first one when repeated). */
export function header(answer: RawAnswer, name: string): string | undefined {
  return answer.headers.find(([key]) => key === name.toLowerCase())?.[1];
}

/**
 * Parses an HTTP/1.1 response from the bytes received so far. `complete` is false while more bytes are
 * needed; `closed` says the server has closed the connection (the end of a body without a length).
 */
export function parseResponse(
  bytes: Buffer,
  options: { head?: boolean; closed?: boolean } = {},
): { complete: true; answer: RawAnswer } | { complete: false; error?: string } {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(headerEnd, start);
    if (end < 0)
      return {
        complete: false,
        ...(options.closed ? { error: "connection closed before the end of the headers" } : {}),
      };
    const lines = bytes.subarray(start, end).toString("latin1").split("\r\n");
    const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
    if (!statusLine)
      return { complete: false, error: `not an HTTP status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}` };
    const status = Number(statusLine[1]);
    const headers: [string, string][] = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) return { complete: false, error: `bad header line ${JSON.stringify(line.slice(0, 80))}` };
      headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
    const bodyStart = end + headerEnd.length;
    // An interim 1xx answer is followed by the real one.
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const answer = (body: Buffer): { complete: true; answer: RawAnswer } => ({
      complete: true,
      answer: { status, headers, body },
    });
    if (options.head || status === 204 || status === 304) return answer(Buffer.alloc(0));
    const rest = bytes.subarray(bodyStart);
    const transferEncoding = headers.find(([key]) => key === "transfer-encoding")?.[1];
    if (transferEncoding && /chunked/i.test(transferEncoding)) {
      const decoded = decodeChunked(rest);
      if (decoded === "incomplete")
        return { complete: false, ...(options.closed ? { error: "connection closed inside a chunked body" } : {}) };
      if (decoded === "malformed") return { complete: false, error: "malformed chunked body" };
      return answer(decoded);
    }
    const length = headers.find(([key]) => key === "content-length")?.[1];
    if (length !== undefined) {
      const expected = Number(length);
      if (!Number.isInteger(expected) || expected < 0)
        return { complete: false, error: `bad content-length ${length}` };
      if (rest.length >= expected) return answer(rest.subarray(0, expected));
      return {
        complete: false,
        ...(options.closed ? { error: `connection closed after ${rest.length} of ${expected} body bytes` } : {}),
      };
    }
    // No length: the body runs to the end of the connection.
    return options.closed ? answer(rest) : { complete: false };
  }
}

function decodeChunked(bytes: Buffer): Buffer | "incomplete" | "malformed" {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) return "incomplete";
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1").split(";")[0]!.trim(), 16);
    if (!Number.isFinite(size) || size < 0) return "malformed";
    const dataStart = lineEnd + 2;
    if (size === 0) return bytes.indexOf("\r\n", dataStart) < 0 ? "incomplete" : Buffer.concat(parts);
    if (bytes.length < dataStart + size + 2) return "incomplete";
    parts.push(bytes.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** Sends `request` on a new connection and waits for one complete answer (or the connection's end, or the timeout). */
export function rawRequest(
  host: string,
  port: number,
  request: Buffer,
  options: { head?: boolean; timeoutMs?: number } = {},
): Promise<RawOutcome> {
  return new Promise((resolveOutcome) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const socket = connect({ host, port });
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolveOutcome(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          kind: "no-answer",
          reason: `no complete answer within ${options.timeoutMs ?? 10_000} ms`,
          bytes: received,
        }),
      options.timeoutMs ?? 10_000,
    );
    const check = (closed: boolean) => {
      const parsed = parseResponse(Buffer.concat(chunks), { head: options.head, closed });
      if (parsed.complete) finish({ kind: "answer", answer: parsed.answer });
      else if (parsed.error) finish({ kind: "no-answer", reason: parsed.error, bytes: received });
      else if (closed)
        finish({
          kind: "no-answer",
          reason: received ? "connection closed mid-answer" : "connection closed without an answer",
          bytes: received,
        });
    };
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      check(false);
    });
    socket.on("end", () => check(true));
    socket.on("close", () => check(true));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A reset after a complete answer is fine (the server closes after answering a request it rejected
      // before reading its body); otherwise it is a missing answer.
      const parsed = parseResponse(Buffer.concat(chunks), { head: options.head, closed: true });
      if (parsed.complete) finish({ kind: "answer", answer: parsed.answer });
      else finish({ kind: "no-answer", reason: `socket error ${error.code ?? error.message}`, bytes: received });
    });
    // The server may answer (e.g. 413) and close before reading everything: ignore write errors here.
    socket.write(request, () => undefined);
  });
}
