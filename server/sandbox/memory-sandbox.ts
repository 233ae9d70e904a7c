/**
 * The sandbox (D-79) as a fetch handler over the in-memory store (D-170, D-171): the same sessions,
 * keys, seeds, `Prefer: code=`/`example=` answers and `/__mock` routes as sandbox-server.ts, with no
 * native module and no listening server, so MSW can run it in-process. Bounded (D-172): at most
 * `maxSessions` sessions (the least recently used dropped first), each holding at most
 * `maxDeploymentsPerSession` deployments (a create beyond it is a 503 that says to reset the session).
 */

import { randomBytes } from "node:crypto";
import pino, { type Logger } from "pino";
import { demo, demoFixturePath, matchPath, preferredExample } from "../../contract/index.js";
import { FixtureCodehost } from "../codehost/fixture-adapter.js";
import { type Hosting, loadConfig } from "../config.js";
import { type CorsPolicy, withCors } from "../cors.js";
import { SecretBox } from "../crypto/secret-box.js";
import { seedDemo } from "../demo.js";
import type { Dependencies } from "../dependencies.js";
import { nowMicros } from "../domain/clock.js";
import type { ApiKeyRecord } from "../domain/records.js";
import { errorSummary } from "../errors/error-summary.js";
import { HttpProblem } from "../errors/http-problem.js";
import { createFetchApp, type FetchHandler, problemResponse } from "../pipeline/fetch-adapter.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { createServices } from "../services/index.js";
import { MemoryStore, StoreFull } from "../storage/memory-store.js";
import { responseChecker } from "../validation/response-validator.js";
import { SandboxCodehost } from "./sandbox-codehost.js";
import { sandboxAuthenticator } from "./sandbox-keys.js";
import { seedExamples } from "./seed-examples.js";
import { inProcessSandboxPolicy, SessionTable } from "./session-table.js";

/** Options of createMemorySandbox. */
export interface MemorySandboxOptions {
  hosting?: Hosting;
  /** Milliseconds until a new deployment turns READY (2,000 by default, as the sandbox). */
  readyAfterMs?: number;
  /** Sessions kept at once; the least recently used is dropped beyond it (100 by default, D-172). */
  maxSessions?: number;
  /** Deployments a session holds at most, seeds included (1,000 by default). */
  maxDeploymentsPerSession?: number;
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
  const sessions = new SessionTable<Promise<FetchHandler>>(
    { ...inProcessSandboxPolicy, maxSessions: options.maxSessions ?? inProcessSandboxPolicy.maxSessions },
    () => createSession(config, logger, maxDeployments),
  );
  const reset = (sessionId?: string): void => {
    if (sessionId === undefined) sessions.clear();
    else sessions.drop(sessionId);
  };
  const cors = options.cors ?? { origins: [], loopback: true };
  const answer: FetchHandler = async (request, sentTarget) => {
    const sessionId = request.headers.get(sessionHeader) ?? "default";
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/__mock/reset") {
      reset(sessionId);
      return new Response(null, { status: 204 });
    }
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
      reset(id);
      return new Response(null, { status: 204 });
    }
    const match = matchPath(request.method, path);
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
    // The in-process policy always makes room (D-172), so a session is always there.
    return (await sessions.session(sessionId, request.headers.get("x-api-key") ?? ""))!(request, sentTarget);
  };
  // Every path answers, a failure as a 500 problem: a rejection would reach the caller's process (D-271).
  const answerAlways: FetchHandler = async (request, sentTarget) => {
    try {
      return await answer(request, sentTarget);
    } catch (error) {
      logger.error({ err: errorSummary(error) }, "unhandled error");
      return problemResponse(
        new HttpProblem("internal", "The sandbox failed to process the request; try again later."),
      );
    }
  };
  const handle: FetchHandler = (request, sentTarget) =>
    withCors(cors, request, () => answerAlways(request, sentTarget));
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
