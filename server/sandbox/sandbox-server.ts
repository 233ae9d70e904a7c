/**
 * The sandbox (stateful mock, D-79): the reference server's rules and storage in memory, one isolated
 * state per `X-Mock-Session` made only for a request with a key and bounded per key and in total (D-114),
 * `Prefer: code=`/`example=` answered from the titled examples, and `POST /__mock/reset` /
 * `DELETE /__mock/sessions/<id>` to start a session over.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pino, { type Logger } from "pino";
import { matchPath, preferredExample } from "../../contract/index.js";
import { withoutHttpWhitespace } from "../auth/authenticate.js";
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
  /** Sessions kept at once, all keys together (D-114; default 1,000). */
  maxSessions?: number;
  /** Sessions one API key may have (D-114; default 20): beyond it, that key's least recently used is dropped. */
  maxSessionsPerKey?: number;
  /** A session unused this long may make room for a new one when the sandbox is full (D-114; default 15 min). */
  idleSessionMs?: number;
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

/** A kept session: who made it, when it was last used, and the requests it is answering. */
interface SessionEntry {
  session: Promise<SandboxSession>;
  /** The X-Api-Key of the request that created it. */
  owner: string;
  lastUsedMs: number;
  inFlight: number;
  /** Dropped from the map: closed once its last request has been answered. */
  dropped: boolean;
}

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
  const maxSessionsPerKey = options.maxSessionsPerKey ?? 20;
  const idleSessionMs = options.idleSessionMs ?? 15 * 60_000;
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  const sessions = new Map<string, SessionEntry>();
  // Requests without a key change nothing (every operation is 401 without one): they share one session
  // that no request can evict or delete (D-114).
  let keyless: Promise<SandboxSession> | undefined;

  const closeWhenIdle = (entry: SessionEntry) => {
    if (entry.dropped && entry.inFlight === 0) void entry.session.then((s) => s.close());
  };
  const dropEntry = (id: string, entry: SessionEntry) => {
    sessions.delete(id);
    entry.dropped = true;
    closeWhenIdle(entry);
  };
  /** The session of a request with a key, made if new; undefined when the sandbox is full of sessions in use. */
  const sessionFor = (id: string, key: string): SessionEntry | undefined => {
    const now = performance.now();
    const found = sessions.get(id);
    if (found) {
      sessions.delete(id);
      sessions.set(id, found);
      found.lastUsedMs = now;
      return found;
    }
    const owned = [...sessions].filter(([, entry]) => entry.owner === key);
    if (owned.length >= maxSessionsPerKey) {
      const [oldestId, oldest] = owned[0]!;
      dropEntry(oldestId, oldest);
    } else if (sessions.size >= maxSessions) {
      const [oldestId, oldest] = sessions.entries().next().value as [string, SessionEntry];
      if (now - oldest.lastUsedMs < idleSessionMs) return undefined;
      dropEntry(oldestId, oldest);
    }
    const entry: SessionEntry = {
      session: createSandboxSession(config, logger),
      owner: key,
      lastUsedMs: now,
      inFlight: 0,
      dropped: false,
    };
    sessions.set(id, entry);
    return entry;
  };
  const drop = async (id: string) => {
    const entry = sessions.get(id);
    if (entry) dropEntry(id, entry);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, sessionId: string): Promise<void> => {
    const key = withoutHttpWhitespace(headerValue(request, "x-api-key") ?? "");
    if (!key) {
      keyless ??= createSandboxSession(config, logger);
      return (await keyless).handle(request, response);
    }
    const entry = sessionFor(sessionId, key);
    if (!entry)
      return answerProblem(
        response,
        new HttpProblem(
          "serviceUnavailable",
          `The sandbox holds its most sessions (${maxSessions}), all used in the last ${idleSessionMs / 60_000} minutes; retry later or reuse an X-Mock-Session.`,
          undefined,
          { "Retry-After": "60" },
        ),
      );
    // A session dropped meanwhile is closed only once this request has been answered (D-114).
    entry.inFlight += 1;
    response.once("close", () => {
      entry.inFlight -= 1;
      closeWhenIdle(entry);
    });
    (await entry.session).handle(request, response);
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
        const id = decodedSegment(sessionPath[1]!);
        if (id === undefined)
          return answerProblem(
            response,
            new HttpProblem(
              "malformedRequest",
              "The session id in the path is not valid percent-encoded UTF-8; encode it with encodeURIComponent.",
            ),
          );
        await drop(id);
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
      await serve(request, response, sessionId);
    })().catch((error: unknown) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "sandbox failed");
      answerProblem(response, new HttpProblem("internal", "The sandbox failed to process the request."));
    });
  };

  return {
    handle,
    sessionCount: () => sessions.size,
    close: async () => {
      const entries = [...sessions.values()];
      sessions.clear();
      const all = [...entries.map((entry) => entry.session), ...(keyless ? [keyless] : [])];
      await Promise.all(all.map(async (session) => (await session).close()));
    },
  };
}

/** A path segment percent-decoded, or undefined when it is not valid percent-encoded UTF-8. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
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
  for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
  answer(response, problem.status, "application/problem+json", JSON.stringify(problem.toProblem()));
}
