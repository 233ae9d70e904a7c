/**
 * The sandbox (D-79), the one of every mock (D-272): a fetch handler over the in-memory store (D-170, D-171)
 * with no native module and no listening server, so MSW runs it in-process and a thin Node server
 * (memory-sandbox-server.ts) puts it on a port. One state per `X-Mock-Session`, owned by the key that made it
 * (reset and delete need that key), bounded per key and in all (session-table.ts), each session holding at
 * most `maxDeploymentsPerSession` deployments and `maxBytesPerSession` bytes of writes (then a 503 that says to
 * reset it); `Prefer: code=`/`example=` answered from the titled examples. A session's state is seeded,
 * read and replaced in one format (`/__mock/state`, D-320) and its clock moved forward (`/__mock/clock`, D-321),
 * by its owner only, as reset is (D-272).
 */

import pino, { type Logger } from "pino";
import { matchPath, preferredExample } from "../../../contract/index.js";
import {
  type CorsPolicy,
  errorSummary,
  type FetchHandler,
  type Hosting,
  HttpProblem,
  hashApiKey,
  loadConfig,
  problemResponse,
  StoreFull,
  unauthenticated,
  withCors,
  withoutHttpWhitespace,
} from "../../../server/engine.js";
import { mockCorsPolicy } from "./mock-cors.js";
import { type MockState, MockStateError, parseMockState } from "./mock-state.js";
import { createSandboxSession, type SandboxSession, storeFullProblem } from "./sandbox-session.js";
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
  /** The state every new session starts from, in its owner key's tenant (D-320); the titled examples without it. */
  seed?: MockState;
  /** Sessions saved before (`savedSessions()`), each restored when its owner key makes it again (D-322). */
  saved?: SavedSession[];
  /** Called after each change of a session's state: a write, a restore, a clock move, a reset (D-322). */
  onChange?: () => void;
}

/** A session as `--state-file` keeps it: its id, the SHA-256 of its owner key (not the key) and its state (D-322). */
export interface SavedSession {
  session: string;
  owner_sha256: string;
  state: MockState;
}

/** The sandbox's sessions behind one fetch handler. */
export interface MemorySandbox {
  handle: FetchHandler;
  /** Drops one session (the next request under its id starts it again), or every session without an id. */
  reset(sessionId?: string): void;
  sessionCount(): number;
  /** The state of a session (`default` without an id) for its owner key; an error when no request made it yet. */
  snapshot(sessionId?: string): Promise<MockState>;
  /** Replaces a session's state; a session no request made yet starts from it (D-320). */
  restore(state: MockState, sessionId?: string): Promise<void>;
  /** Moves a session's clock forward; an error when no request made the session yet (D-321). */
  advanceClock(ms: number, sessionId?: string): Promise<void>;
  /** Every session with its owner's key hashed, as `--state-file` keeps them (D-322). */
  savedSessions(): Promise<SavedSession[]>;
}

/** The header that names a session; requests without it share the session `default`. */
const sessionHeader = "x-mock-session";

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
  const onChange = options.onChange ?? (() => {});
  if (options.seed && options.seed.deployments.length > maxDeployments)
    throw new RangeError(
      `The seed holds ${options.seed.deployments.length} deployments, more than a session's ${maxDeployments}.`,
    );
  // States waiting for their session: saved ones by id and owner hash, restored ones by id alone.
  const waiting = new Map(
    (options.saved ?? []).map((saved) => [`${saved.session}\n${saved.owner_sha256}`, saved.state]),
  );
  const restored = new Map<string, MockState>();
  const newSession = async (id?: string, owner?: string): Promise<SandboxSession> => {
    const session = await createSandboxSession(config, logger, maxDeployments);
    if (id === undefined || owner === undefined) return session;
    const savedKey = `${id}\n${hashApiKey(owner)}`;
    const state = waiting.get(savedKey) ?? restored.get(id) ?? options.seed;
    waiting.delete(savedKey);
    restored.delete(id);
    if (state) await session.restore(owner, state);
    return session;
  };
  const sessions = new SessionTable<Promise<SandboxSession>>(
    {
      maxSessions: options.maxSessions ?? sandboxPolicy.maxSessions,
      maxSessionsPerKey: options.maxSessionsPerKey ?? sandboxPolicy.maxSessionsPerKey,
    },
    (id, owner) =>
      newSession(id, owner).catch((error: unknown) => {
        // A session whose seed could not be loaded (more than the cap with the examples) is not kept: the next request tries again.
        sessions.drop(id);
        throw error;
      }),
  );
  // Requests without a key change nothing (every operation is 401 without one): they share one session outside the table.
  let keyless: Promise<SandboxSession> | undefined;
  const reset = (sessionId?: string): void => {
    if (sessionId === undefined) sessions.clear();
    else sessions.drop(sessionId);
    onChange();
  };
  /** 401 without a key, 403 for another key's session (D-272); undefined when the key may act on the session. */
  const refusal = (sessionId: string, key: string, what: string): Response | undefined => {
    if (key === "") return problemResponse(unauthenticated(`Send the X-Api-Key that made the session to ${what}.`));
    const owner = sessions.ownerOf(sessionId);
    if (owner !== undefined && owner !== key)
      return problemResponse(
        new HttpProblem("forbidden", `This mock session was made by another API key; only that key may ${what}.`),
      );
    return undefined;
  };
  /** Drops a session for its owner. */
  const resetOwned = (sessionId: string, key: string): Response => {
    const refused = refusal(sessionId, key, "reset it");
    if (refused) return refused;
    reset(sessionId);
    return new Response(null, { status: 204 });
  };
  /** `/__mock/state` and `/__mock/clock` for the session's owner (D-320, D-321). */
  const stateAdmin = async (request: Request, path: string, sessionId: string, key: string): Promise<Response> => {
    const route = path === "/__mock/state" ? { GET: true, PUT: true } : { POST: true };
    if (!(request.method in route))
      return problemResponse(
        new HttpProblem("methodNotAllowed", `${path} takes ${Object.keys(route).join(" and ")}.`, undefined, {
          Allow: Object.keys(route).join(", "),
        }),
      );
    const refused = refusal(sessionId, key, path === "/__mock/state" ? "read or replace its state" : "move its clock");
    if (refused) return refused;
    const session = await sessions.session(sessionId, key);
    if (request.method === "GET") return Response.json(await session.snapshot(key));
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return problemResponse(new HttpProblem("malformedJson", "The body is not JSON."));
    }
    if (request.method === "PUT") {
      try {
        await session.restore(key, parseMockState(body));
      } catch (error) {
        if (error instanceof StoreFull) return problemResponse(storeFullProblem(error)!);
        if (!(error instanceof MockStateError)) throw error;
        return problemResponse(new HttpProblem("validation", `The state is not a mock state: ${error.message}.`));
      }
      onChange();
      return new Response(null, { status: 204 });
    }
    const advance = (body as { advance_ms?: unknown } | null)?.advance_ms;
    if (!Number.isSafeInteger(advance) || (advance as number) < 0)
      return problemResponse(
        new HttpProblem("validation", 'Send {"advance_ms": N}, N a whole number of milliseconds, 0 or more.'),
      );
    session.advancedMs += advance as number;
    onChange();
    return Response.json({ clock_advanced_ms: session.advancedMs });
  };
  const cors = options.cors ?? mockCorsPolicy({});
  const answer: FetchHandler = async (request, sent) => {
    const sessionId = request.headers.get(sessionHeader) ?? "default";
    const key = withoutHttpWhitespace(request.headers.get("x-api-key") ?? "");
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/__mock/reset") return resetOwned(sessionId, key);
    if (path === "/__mock/state" || path === "/__mock/clock") return stateAdmin(request, path, sessionId, key);
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
    onChange();
    return new Response(body, { status: response.status, headers: response.headers });
  };
  // Every path answers, a failure as a 500 problem: a rejection would reach the caller's process (D-271).
  const answerAlways: FetchHandler = async (request, sent) => {
    try {
      return await answer(request, sent);
    } catch (error) {
      if (error instanceof StoreFull) return problemResponse(storeFullProblem(error)!);
      logger.error({ err: errorSummary(error) }, "unhandled error");
      return problemResponse(
        new HttpProblem("internal", "The sandbox failed to process the request; try again later."),
      );
    }
  };
  const handle: FetchHandler = (request, sent) => withCors(cors, request, () => answerAlways(request, sent));
  /** The session `id` and its owner, or an error naming what to do first. */
  const existing = async (id: string): Promise<{ session: SandboxSession; owner: string }> => {
    const owner = sessions.ownerOf(id);
    if (owner === undefined)
      throw new Error(`No mock session "${id}" yet: send a request with an X-Api-Key under it first.`);
    return { session: await sessions.session(id, owner), owner };
  };
  return {
    handle,
    reset,
    sessionCount: () => sessions.size,
    async snapshot(sessionId = "default") {
      const { session, owner } = await existing(sessionId);
      return session.snapshot(owner);
    },
    async restore(state, sessionId = "default") {
      const checked = parseMockState(state);
      if (sessions.ownerOf(sessionId) === undefined) restored.set(sessionId, checked);
      else {
        const { session, owner } = await existing(sessionId);
        await session.restore(owner, checked);
      }
      onChange();
    },
    async advanceClock(ms, sessionId = "default") {
      if (!Number.isSafeInteger(ms) || ms < 0)
        throw new RangeError(`advance by whole milliseconds, 0 or more; got ${ms}`);
      (await existing(sessionId)).session.advancedMs += ms;
      onChange();
    },
    async savedSessions() {
      const saved: SavedSession[] = [];
      for (const [id, owner, session] of sessions.entries())
        saved.push({ session: id, owner_sha256: hashApiKey(owner), state: await (await session).snapshot(owner) });
      // Saved sessions no request has made again yet stay saved.
      for (const [at, state] of waiting) {
        const split = at.lastIndexOf("\n");
        saved.push({ session: at.slice(0, split), owner_sha256: at.slice(split + 1), state });
      }
      return saved;
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
