/**
 * A thin Node HTTP server around a fetch handler (D-171): every request answered, a handler that fails answered 500,
 * never an unhandled rejection (D-271); the handler hears the client's address (the sandbox counts sessions per address, D-471).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { bodyLimitBytes, errorSummary, HttpProblem, hostFieldCount, keyFieldCount } from "../../../server/engine.js";
import { answerClientErrors } from "../../../server/errors/client-errors.js";
import type { AddressedFetchHandler } from "./memory-sandbox.js";

/** The server; nothing listens yet. */
export function createFetchHttpServer(handle: AddressedFetchHandler, logger: Logger): http.Server {
  const server = http.createServer({ requireHostHeader: false }, fetchNodeHandler(handle, logger));
  answerClientErrors(server, logger);
  return server;
}

/** The fetch handler as a Node request listener that never rejects. */
export function fetchNodeHandler(
  handle: AddressedFetchHandler,
  logger: Logger,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    serve(handle, request, response).catch((error: unknown) => {
      logger.error({ err: errorSummary(error) }, "unhandled error");
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const answer = new HttpProblem("internal", "The mock failed to process the request; try again later.");
      response.writeHead(answer.status, { "Content-Type": "application/problem+json" });
      response.end(JSON.stringify(answer.toProblem()));
    });
  };
}

const unfetchableMethods = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The URL of a request: an absolute-form target (RFC 9112 §3.2.2) as sent, else the target on localhost. Nothing
 * reads the URL's host (the pipeline judges the Host fields as sent, D-76), and a Host holding a path (`h/__mock`)
 * must never move the target (D-270).
 */
function requestUrl(target: string): string {
  for (const candidate of [target, `http://localhost${target}`]) if (URL.canParse(candidate)) return candidate;
  return "http://localhost/";
}

/** One Node request through the fetch handler. */
async function serve(handle: AddressedFetchHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { body, truncated } = await readBody(request);
  if (truncated) response.setHeader("Connection", "close");
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = request.method ?? "GET";
  // A Request refuses these methods; it carries GET and the pipeline reads the method as sent (404 or 405).
  const carried = unfetchableMethods.has(method) ? "GET" : method;
  const hasBody = carried !== "GET" && carried !== "HEAD";
  // The Host checks of RFC 9112 §3.2 are the pipeline's, on what was sent (D-76, D-310).
  const answer = await handle(
    new Request(requestUrl(request.url ?? "/"), {
      method: carried,
      headers,
      ...(hasBody ? { body: new Uint8Array(body) } : {}),
    }),
    {
      method,
      target: request.url ?? "/",
      httpVersion: request.httpVersion,
      hostFields: hostFieldCount(request.rawHeaders),
      keyFields: keyFieldCount(request.rawHeaders),
    },
    request.socket.remoteAddress,
  );
  response.statusCode = answer.status;
  for (const [name, value] of answer.headers) response.setHeader(name, value);
  response.end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * The body, reading at most one byte past the limit (the handler answers 413), the rest discarded. A body declared
 * past the limit is not waited for: the handler refuses it by its Content-Length (D-30, D-472).
 */
function readBody(request: IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
  if (Number(request.headers["content-length"]) > bodyLimitBytes) {
    request.resume();
    return Promise.resolve({ body: Buffer.alloc(0), truncated: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    request.on("data", (chunk: Buffer) => {
      if (truncated) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > bodyLimitBytes) {
        truncated = true;
        resolve({ body: Buffer.concat(chunks).subarray(0, bodyLimitBytes + 1), truncated });
      }
    });
    request.on("end", () => resolve({ body: Buffer.concat(chunks), truncated }));
    request.on("error", reject);
  });
}
