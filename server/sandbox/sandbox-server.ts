/**
 * The sandbox (stateful mock, D-79): the reference server's rules and storage in memory, one isolated
 * state per `X-Mock-Session`, `Prefer: code=`/`example=` answered from the titled examples, and
 * `POST /__mock/reset` / `DELETE /__mock/sessions/<id>` to start a session over.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pino, { type Logger } from "pino";
import { matchPath, preferredExample } from "../../contract/index.js";
import { type Hosting, loadConfig } from "../config.js";
import { applyCors, corsPolicyFromEnv } from "../cors.js";
import { answerClientErrors } from "../errors/client-errors.js";
import { HttpProblem } from "../errors/http-problem.js";
import { createSandboxSession, type SandboxSession } from "./sandbox-session.js";

/** Options of startSandbox. */
interface SandboxOptions {
  port?: number;
  host?: string;
  hosting?: Hosting;
  /** Milliseconds until a new deployment turns READY. */
  readyAfterMs?: number;
  /** Sessions kept at once; the least recently used is dropped beyond it. */
  maxSessions?: number;
  logger?: Logger;
}

/** The sandbox's sessions behind one request handler, for a server (or a front that wraps it) to serve. */
interface Sandbox {
  handle(request: IncomingMessage, response: ServerResponse): void;
  sessionCount(): number;
  /** Drops every session. */
  close(): Promise<void>;
}

/** A sandbox listening on its own port. */
export interface RunningSandbox extends Sandbox {
  url: string;
  port: number;
}

/** The header that names a session; requests without it share the session `default`. */
const sessionHeader = "x-mock-session";

/** Creates the sandbox's handler; nothing listens yet. */
export function createSandbox(options: Omit<SandboxOptions, "port" | "host"> = {}): Sandbox {
  const logger = options.logger ?? pino({ level: "silent" });
  const config = {
    ...loadConfig({}),
    hosting: options.hosting ?? "cloud",
    readyAfterMs: options.readyAfterMs ?? 2000,
    validateResponses: true,
  };
  const maxSessions = options.maxSessions ?? 1000;
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  const sessions = new Map<string, Promise<SandboxSession>>();

  const session = (id: string): Promise<SandboxSession> => {
    let found = sessions.get(id);
    if (found) sessions.delete(id);
    else found = createSandboxSession(config, logger);
    sessions.set(id, found);
    for (const [oldest, dropped] of sessions) {
      if (sessions.size <= maxSessions) break;
      sessions.delete(oldest);
      void dropped.then((s) => s.close());
    }
    return found;
  };
  const drop = async (id: string) => {
    const dropped = sessions.get(id);
    sessions.delete(id);
    await (await dropped)?.close();
  };

  // The sandbox is a development tool: loopback origins are allowed besides CORS_ORIGINS (D-132).
  const cors = corsPolicyFromEnv(process.env, true);
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (applyCors(cors, request, response)) return;
    const sessionId = headerValue(request, sessionHeader) ?? "default";
    const path = (request.url ?? "/").split("?")[0]!;
    void (async () => {
      if (request.method === "POST" && path === "/__mock/reset") {
        await drop(sessionId);
        return answer(response, 204);
      }
      const sessionPath = /^\/__mock\/sessions\/([^/]+)$/.exec(path);
      if (request.method === "DELETE" && sessionPath) {
        await drop(decodeURIComponent(sessionPath[1]!));
        return answer(response, 204);
      }
      const match = matchPath(request.method ?? "GET", path);
      if (match.kind === "operation") {
        const example = preferredExample(match.operation, headerValue(request, "prefer"));
        if (example instanceof Error)
          return answerProblem(
            response,
            new HttpProblem("notFound", `${example.message}; see the titled examples of the contract.`),
          );
        if (example) return answer(response, example.status, example.mediaType, JSON.stringify(example.value));
      }
      (await session(sessionId)).handle(request, response);
    })().catch((error: unknown) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "sandbox failed");
      answerProblem(response, new HttpProblem("internal", "The sandbox failed to process the request."));
    });
  };

  return {
    handle,
    sessionCount: () => sessions.size,
    close: async () => void (await Promise.all([...sessions.keys()].map(drop))),
  };
}

/** Creates the sandbox and serves it on 127.0.0.1 (a free port unless `port` is given). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(options);
  const host = options.host ?? "127.0.0.1";
  const server = http.createServer({ requireHostHeader: false }, sandbox.handle);
  answerClientErrors(server, options.logger ?? pino({ level: "silent" }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    ...sandbox,
    url: `http://${host}:${port}`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answer(response: ServerResponse, status: number, contentType?: string, body?: string): void {
  response.statusCode = status;
  if (contentType) response.setHeader("Content-Type", contentType);
  response.end(body);
}

function answerProblem(response: ServerResponse, problem: HttpProblem): void {
  answer(response, problem.status, "application/problem+json", JSON.stringify(problem.toProblem()));
}
