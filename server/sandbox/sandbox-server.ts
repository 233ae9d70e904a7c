/**
 * The sandbox (stateful mock, D-79): the reference server's rules and storage in memory, one isolated
 * state per `X-Mock-Session` made only for a request with a key and bounded per key and in total (D-114),
 * `Prefer: code=`/`example=` answered from the titled examples, and `POST /__mock/reset` /
 * `DELETE /__mock/sessions/<id>` to start a session over.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import pino, { type Logger } from "pino";
import { listen } from "../../common/listen.js";
import { matchPath, preferredExample } from "../../contract/index.js";
import { withoutHttpWhitespace } from "../auth/authenticate.js";
import { type Hosting, loadConfig } from "../config.js";
import { applyCors, corsPolicyFromEnv } from "../cors.js";
import { answerClientErrors } from "../errors/client-errors.js";
import { HttpProblem } from "../errors/http-problem.js";
import { createSandboxSession, type SandboxSession } from "./sandbox-session.js";
import { type SessionPolicy, SessionTable, sharedSandboxPolicy } from "./session-table.js";

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

/** A kept session and the requests it is answering. */
interface SessionEntry {
  session: Promise<SandboxSession>;
  inFlight: number;
  /** Dropped from the table: closed once its last request has been answered. */
  dropped: boolean;
  closing?: Promise<void>;
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
  const policy: SessionPolicy = {
    maxSessions: options.maxSessions ?? sharedSandboxPolicy.maxSessions,
    maxSessionsPerKey: options.maxSessionsPerKey ?? sharedSandboxPolicy.maxSessionsPerKey,
    idleSessionMs: options.idleSessionMs ?? sharedSandboxPolicy.idleSessionMs,
  };
  // Requests without a key change nothing (every operation is 401 without one): they share one session
  // that no request can evict or delete (D-114).
  let keyless: Promise<SandboxSession> | undefined;

  const closeOnce = (entry: SessionEntry) => {
    entry.closing ??= entry.session.then((s) => s.close());
    return entry.closing;
  };
  const closeWhenIdle = (entry: SessionEntry) => {
    if (entry.dropped && entry.inFlight === 0) void closeOnce(entry);
  };
  const sessions = new SessionTable<SessionEntry>(
    policy,
    () => ({ session: createSandboxSession(config, logger), inFlight: 0, dropped: false }),
    (entry) => {
      entry.dropped = true;
      closeWhenIdle(entry);
    },
  );

  const serve = async (request: IncomingMessage, response: ServerResponse, sessionId: string): Promise<void> => {
    const key = withoutHttpWhitespace(headerValue(request, "x-api-key") ?? "");
    if (!key) {
      keyless ??= createSandboxSession(config, logger);
      return (await keyless).handle(request, response);
    }
    const entry = sessions.session(sessionId, key);
    if (!entry)
      return answerProblem(
        response,
        new HttpProblem(
          "serviceUnavailable",
          `The sandbox holds its most sessions (${policy.maxSessions}), all used in the last ${policy.idleSessionMs / 60_000} minutes; retry later or reuse an X-Mock-Session.`,
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
        sessions.drop(sessionId);
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
        sessions.drop(id);
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
      const entries = sessions.clear();
      await Promise.all([...entries.map(closeOnce), ...(keyless ? [keyless.then((s) => s.close())] : [])]);
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
  const listening = await listen(server, options.port ?? 0, host);
  return {
    ...sandbox,
    ...listening,
    async close() {
      await listening.close();
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
