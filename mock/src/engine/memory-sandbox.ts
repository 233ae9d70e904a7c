/**
 * The sandbox (D-79), the one of every mock (D-272): a fetch handler over the in-memory store (D-170, D-171)
 * with no native module and no listening server, so MSW runs it in-process and a thin Node server
 * (memory-sandbox-server.ts) puts it on a port. One state per `X-Mock-Session`, owned by the key that made it
 * (reset and delete need that key), bounded per key and in all (session-table.ts), each session holding at
 * most `maxDeploymentsPerSession` deployments and `maxBytesPerSession` bytes of writes (then a 503 that says to
 * reset it); `Prefer: code=`/`example=` answered from the titled examples.
 */

import { randomBytes } from "node:crypto";
import pino, { type Logger } from "pino";
import { demo, demoFixturePath, matchPath, preferredExample } from "../../../contract/index.js";
import { unauthenticated, withoutHttpWhitespace } from "../../../server/auth/authenticate.js";
import { FixtureCodehost } from "../../../server/codehost/fixture-adapter.js";
import { type Hosting, loadConfig } from "../../../server/config.js";
import { type CorsPolicy, withCors } from "../../../server/cors.js";
import { SecretBox } from "../../../server/crypto/secret-box.js";
import { seedDemo } from "../../../server/demo.js";
import type { Dependencies } from "../../../server/dependencies.js";
import { nowMicros } from "../../../server/domain/clock.js";
import type { ApiKeyRecord } from "../../../server/domain/records.js";
import { errorSummary } from "../../../server/errors/error-summary.js";
import { HttpProblem } from "../../../server/errors/http-problem.js";
import { createFetchApp, type FetchHandler, problemResponse } from "../../../server/pipeline/fetch-adapter.js";
import { deploymentRenderer } from "../../../server/presenters/deployment-text.js";
import { createServices } from "../../../server/services/index.js";
import { MemoryStore, StoreFull } from "../../../server/storage/memory-store.js";
import { responseChecker } from "../../../server/validation/response-validator.js";
import { mockCorsPolicy } from "./mock-cors.js";
import { SandboxCodehost } from "./sandbox-codehost.js";
import { sandboxAuthenticator } from "./sandbox-keys.js";
import { seedExamples } from "./seed-examples.js";
import { SessionTable, sandboxPolicy } from "./session-table.js";

/** Options of createMemorySandbox. */
export interface MemorySandboxOptions {
  hosting?: Hosting;
  /** Milliseconds until a new deployment turns READY (2,000 by default, as the sandbox). */
  readyAfterMs?: number;
  /** Sessions kept at once, all keys together (1,000 by default, D-272). */
  maxSessions?: number;
  /** Sessions one key may own (20 by default, D-272): a further one drops that key's least recently used. */
  maxSessionsPerKey?: number;
  /** Deployments a session holds at most, seeds included (1,000 by default). */
  maxDeploymentsPerSession?: number;
  /** Bytes of answers to writes a session takes before it refuses more (4 MiB by default, D-272). */
  maxBytesPerSession?: number;
  logger?: Logger;
  /** Which browser origins may call (D-132); every loopback origin and no other by default, as the sandbox. */
  cors?: CorsPolicy;
}

/** The sandbox's sessions behind one fetch handler. */
export interface MemorySandbox {
  handle: FetchHandler;
  /** Drops one session (the next request under its id starts it again), or every session without an id. */
  reset(sessionId?: string): void;
  sessionCount(): number;
}

/** A session's app and the bytes its writes have taken. */
interface Session {
  handle: FetchHandler;
  bytesUsed: number;
}

/** The header that names a session; requests without it share the session `default`. */
const sessionHeader = "x-mock-session";

const fixture = FixtureCodehost.fromFile(demoFixturePath);

/** Creates the sandbox; sessions start on their first request. */
export function createMemorySandbox(options: MemorySandboxOptions = {}): MemorySandbox {
  const logger = options.logger ?? pino({ level: "silent" });
  const config = {
    ...loadConfig({}),
    hosting: options.hosting ?? "cloud",
    readyAfterMs: options.readyAfterMs ?? 2000,
    validateResponses: true,
  };
  const maxDeployments = options.maxDeploymentsPerSession ?? 1000;
  const maxBytes = options.maxBytesPerSession ?? 4 * 1024 * 1024;
  const newSession = async (): Promise<Session> => ({
    handle: await createSession(config, logger, maxDeployments),
    bytesUsed: 0,
  });
  const sessions = new SessionTable<Promise<Session>>(
    {
      maxSessions: options.maxSessions ?? sandboxPolicy.maxSessions,
      maxSessionsPerKey: options.maxSessionsPerKey ?? sandboxPolicy.maxSessionsPerKey,
    },
    newSession,
  );
  // Requests without a key change nothing (every operation is 401 without one): they share one session outside the table.
  let keyless: Promise<Session> | undefined;
  const reset = (sessionId?: string): void => {
    if (sessionId === undefined) sessions.clear();
    else sessions.drop(sessionId);
  };
  /** Drops a session for its owner: 401 without a key, 403 for another key's session (D-272). */
  const resetOwned = (sessionId: string, key: string): Response => {
    if (key === "") return problemResponse(unauthenticated("Send the X-Api-Key that made the session to reset it."));
    const owner = sessions.ownerOf(sessionId);
    if (owner !== undefined && owner !== key)
      return problemResponse(
        new HttpProblem("forbidden", "This mock session was made by another API key; only that key may reset it."),
      );
    sessions.drop(sessionId);
    return new Response(null, { status: 204 });
  };
  const cors = options.cors ?? mockCorsPolicy({});
  const answer: FetchHandler = async (request, sent) => {
    const sessionId = request.headers.get(sessionHeader) ?? "default";
    const key = withoutHttpWhitespace(request.headers.get("x-api-key") ?? "");
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/__mock/reset") return resetOwned(sessionId, key);
    const sessionPath = /^\/__mock\/sessions\/([^/]+)$/.exec(path);
    if (request.method === "DELETE" && sessionPath) {
      const id = decodedSegment(sessionPath[1]!);
      if (id === undefined)
        return problemResponse(
          new HttpProblem(
            "malformedRequest",
            "The session id in the path is not valid percent-encoded UTF-8; encode it with encodeURIComponent.",
          ),
        );
      return resetOwned(id, key);
    }
    const match = matchPath(sent?.method ?? request.method, path);
    if (match.kind === "operation") {
      const example = preferredExample(match.operation, request.headers.get("prefer") ?? undefined);
      if (example instanceof Error)
        return problemResponse(
          new HttpProblem("notFound", `${example.message}; see the titled examples of the contract.`),
        );
      if (example)
        return new Response(JSON.stringify(example.value), {
          status: example.status,
          headers: { "Content-Type": example.mediaType },
        });
    }
    if (key === "") {
      keyless ??= newSession();
      return (await keyless).handle(request, sent);
    }
    const session = await sessions.session(sessionId, key);
    const writes = request.method === "POST";
    if (writes && session.bytesUsed >= maxBytes)
      return problemResponse(
        new HttpProblem(
          "serviceUnavailable",
          `This mock session has taken its budget of ${maxBytes} bytes of writes; reset it (POST /__mock/reset) or use another X-Mock-Session.`,
        ),
      );
    const response = await session.handle(request, sent);
    if (!writes || response.status >= 300) return response;
    const body = await response.arrayBuffer();
    session.bytesUsed += body.byteLength;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  // Every path answers, a failure as a 500 problem: a rejection would reach the caller's process (D-271).
  const answerAlways: FetchHandler = async (request, sent) => {
    try {
      return await answer(request, sent);
    } catch (error) {
      logger.error({ err: errorSummary(error) }, "unhandled error");
      return problemResponse(
        new HttpProblem("internal", "The sandbox failed to process the request; try again later."),
      );
    }
  };
  const handle: FetchHandler = (request, sent) => withCors(cors, request, () => answerAlways(request, sent));
  return { handle, reset, sessionCount: () => sessions.size };
}

/** A session: an empty in-memory store, the demo organizations, and the titled examples in the demo tenant (as sandbox-session.ts). */
async function createSession(
  config: Dependencies["config"],
  logger: Logger,
  maxDeployments: number,
): Promise<FetchHandler> {
  const store = new MemoryStore({ renderer: deploymentRenderer, maxDeployments });
  await seedDemo(store, logger);
  const codehost = new SandboxCodehost(fixture, demo.acme.productionTenantId);
  let services: ReturnType<typeof createServices> | undefined;
  const deps: Dependencies = {
    config,
    store,
    codehost,
    // Sandbox secrets live as long as the session, in memory: a fresh key per session.
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    authenticate: sandboxAuthenticator(store, async (key: ApiKeyRecord) => {
      codehost.addSandboxTenant(key.defaultTenantId);
      await seedExamples(services!, {
        apiKeyId: key.id,
        organizationId: key.organizationId,
        tenantId: key.defaultTenantId,
      });
    }),
    checkResponse: responseChecker(),
    nowUs: nowMicros,
  };
  services = createServices(deps);
  await seedExamples(services, {
    apiKeyId: "demo",
    organizationId: demo.acme.organizationId,
    tenantId: demo.acme.productionTenantId,
  });
  return createFetchApp(deps, { problemOf: storeFullProblem });
}

/** A path segment percent-decoded, or undefined when it is not valid percent-encoded UTF-8. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A full in-memory store as 503 (D-170): the session holds its cap of deployments. */
function storeFullProblem(error: unknown): HttpProblem | undefined {
  if (!(error instanceof StoreFull)) return undefined;
  return new HttpProblem(
    "serviceUnavailable",
    `This mock session holds its cap of ${error.maxDeployments} deployments; reset it (POST /__mock/reset) or use another X-Mock-Session.`,
  );
}
