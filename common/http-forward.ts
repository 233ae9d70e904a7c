/**
 * The one HTTP forwarding of the kit: every proxy (the mock's problem front, the contract proxy, the
 * fault proxy) sends an exchange upstream with the bodies buffered, so it can inspect or rewrite the
 * answer, and writes the answer back without the hop-by-hop headers of the upstream connection. A request body is
 * read up to a limit (readBoundedBody, D-472).
 */
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";

/** A buffered answer. */
export interface ForwardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request to send upstream. */
interface UpstreamRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer | string;
}

/** Headers of one connection (RFC 9110 section 7.6.1), and the length, which the proxy sets for the body it sends. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
]);

/** Reads a whole answer from upstream. */
async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads a request body of at most `limitBytes`, or undefined when it is larger: by its Content-Length before a byte is
 * read, or by the bytes counted while reading (a chunked body). Past the limit nothing more is kept: the rest is read
 * and discarded until the caller's answer (413, `Connection: close`) ends the connection, so memory stays flat.
 */
export function readBoundedBody(incoming: IncomingMessage, limitBytes: number): Promise<Buffer | undefined> {
  const discardRest = () => {
    incoming.removeAllListeners("data");
    incoming.on("data", () => {});
    incoming.resume();
  };
  if (Number(incoming.headers["content-length"]) > limitBytes) {
    discardRest();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      discardRest();
      resolve(undefined);
    });
    incoming.once("end", () => resolve(Buffer.concat(chunks)));
    incoming.on("error", reject);
  });
}

/** Sends one request to `target` (origin only) and buffers the answer; redirects are not followed. */
export function send(target: URL, request: UpstreamRequest): Promise<ForwardedResponse> {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && !hopByHop.has(name.toLowerCase()) && name.toLowerCase() !== "host")
      headers[name] = value;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.path, headers },
      (response) => {
        readBody(response).then(
          (data) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: data }),
          reject,
        );
      },
    );
    outgoing.once("error", reject);
    const body = request.body === undefined || request.body.length === 0 ? undefined : request.body;
    outgoing.end(body);
  });
}

/** Sends the request to `target` (origin only), with `method` instead of its own if given, and buffers the answer. */
export function forward(
  target: URL,
  incoming: IncomingMessage,
  body: Buffer,
  method = incoming.method,
): Promise<ForwardedResponse> {
  return send(target, { method: method ?? "GET", path: incoming.url ?? "/", headers: incoming.headers, body });
}

/**
 * Writes an answer: its headers without the hop-by-hop ones, `extra` over them, and the length of `body`; an answer to
 * HEAD keeps the length it was given, the length GET would send (RFC 9110 §9.3.2).
 */
export function writeAnswer(
  outgoing: ServerResponse,
  answer: { status: number; headers: IncomingHttpHeaders | Record<string, string>; body: Buffer | string },
  extra: Record<string, string> = {},
): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined && !hopByHop.has(name.toLowerCase())) headers[name] = value;
  const given = (answer.headers as Record<string, string | string[] | undefined>)["content-length"];
  const length = outgoing.req?.method === "HEAD" && typeof given === "string" ? given : Buffer.byteLength(answer.body);
  outgoing.writeHead(answer.status, { ...headers, ...extra, "content-length": length });
  outgoing.end(answer.body);
}
