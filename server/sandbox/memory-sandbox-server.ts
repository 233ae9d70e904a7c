/** A thin Node HTTP wrapper around a fetch handler (D-171): the in-memory sandbox on a port, for the conformance suite and for tools that need a URL. */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import pino from "pino";
import { listen } from "../../common/listen.js";
import { corsPolicyFromEnv } from "../cors.js";
import { answerClientErrors } from "../errors/client-errors.js";
import { HttpProblem } from "../errors/http-problem.js";
import { type FetchHandler, problemResponse } from "../pipeline/fetch-adapter.js";
import { bodyLimitBytes } from "../validation/json-body.js";
import { createMemorySandbox, type MemorySandbox, type MemorySandboxOptions } from "./memory-sandbox.js";

/** The in-memory sandbox listening on its own port. */
interface RunningMemorySandbox extends MemorySandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the in-memory sandbox on 127.0.0.1 (a free port unless `port` is given). */
export async function startMemorySandbox(
  options: MemorySandboxOptions & { port?: number; host?: string } = {},
): Promise<RunningMemorySandbox> {
  const sandbox = createMemorySandbox({ cors: corsPolicyFromEnv(process.env, true), ...options });
  const host = options.host ?? "127.0.0.1";
  const server = http.createServer({ requireHostHeader: false }, (request, response) => {
    void serve(sandbox.handle, request, response);
  });
  answerClientErrors(server, options.logger ?? pino({ level: "silent" }));
  return { ...sandbox, ...(await listen(server, options.port ?? 0, host)) };
}

/** One Node request through the fetch handler. */
async function serve(handle: FetchHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  let answer: Response;
  // RFC 9112 §3.2, as app.ts answers it (D-76): an HTTP/1.1 request without Host is a 400.
  if (request.httpVersion === "1.1" && !request.headers.host) {
    answer = problemResponse(new HttpProblem("malformedRequest", "An HTTP/1.1 request must carry a Host header."));
  } else {
    const { body, truncated } = await readBody(request);
    if (truncated) response.setHeader("Connection", "close");
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    answer = await handle(
      new Request(`http://${request.headers.host ?? "localhost"}${request.url ?? "/"}`, {
        method: request.method,
        headers,
        ...(hasBody ? { body: new Uint8Array(body) } : {}),
      }),
    );
  }
  response.statusCode = answer.status;
  for (const [name, value] of answer.headers) response.setHeader(name, value);
  response.end(Buffer.from(await answer.arrayBuffer()));
}

/** The body, reading at most one byte past the limit (the handler answers 413), the rest discarded. */
function readBody(request: IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
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
