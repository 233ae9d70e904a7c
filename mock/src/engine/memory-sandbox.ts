/**
 * The sandbox (D-79), the one of every mock (D-272): a fetch handler over the in-memory store (D-170, D-171)
 * with no native module and no listening server, so MSW runs it in-process and a thin Node server
 * (memory-sandbox-server.ts) puts it on a port. One state per `X-Mock-Session` id and key: another key under the
 * same id, `default` included, has a session of its own (D-396). Sessions are bounded per key and in all, in
 * number and bytes (session-table.ts); each holds at most `maxDeploymentsPerSession` deployments and
 * `maxBytesPerSession` bytes of writes and states put (then a 503 that says to reset it); `Prefer: code=`/`example=`
 * answered from the titled examples. A session's state is seeded, read and replaced in one format
 * (`/__mock/state`, D-320; a state the sandbox could not answer from is a 422, D-395) and its clock moved forward
 * (`/__mock/clock`, D-321, at most 100 years in all).
 */

import pino, { type Logger } from "pino";
import { matchPath, preferredExample } from "../../../contract/index.js";
import {
  bodyLimitBytes,
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
import { SessionsFull, SessionTable, sandboxPolicy } from "./session-table.js";
import { assertAnswerable, maxClockAdvanceMs } from "./state-answers.js";

/** Options of createMemorySandbox. */
export interface MemorySandboxOptions {
  hosting?: Hosting;
  /** Milliseconds until a new deployment turns READY (2,000 by default, as the sandbox). */
  readyAfterMs?: number;
  /** Sessions kept at once, all keys together (1,000 by default, D-272); a full table refuses a new key's with a 429 (D-470). */
  maxSessions?: number;
  /** Sessions one key may own (20 by default, D-272): a further one drops that key's least recently used. */
  maxSessionsPerKey?: number;
  /** Deployments a session holds at most, seeds included (1,000 by default). */
  maxDeploymentsPerSession?: number;
  /** Bytes of answers to writes and of states put a session takes before it refuses more (4 MiB by default, D-272, D-396). */
  maxBytesPerSession?: number;
  /** Bytes all sessions hold together: past it a key holding several loses its least recently used, or writes wait (128 MiB by default, D-396, D-470). */
  maxBytesInAll?: number;
  /** Milliseconds a session may go unused before it expires (30 minutes by default, D-471). */
  sessionIdleMs?: number;
  /** Sessions one client address may hold (200 by default, D-471); requests with no address (in-process) are not counted. */
  maxSessionsPerAddress?: number;
  /** Milliseconds now, for the sessions' idle time; tests pass their own. */
  now?: () => number;
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

/** A fetch handler that also hears the client's address, when the request came over the network (D-471). */
export type AddressedFetchHandler = (
  request: Request,
  sent?: Parameters<FetchHandler>[1],
  clientAddress?: string,
) => Promise<Response>;

/** The sandbox's sessions behind one fetch handler. */
export interface MemorySandbox {
  handle: AddressedFetchHandler;
  /** Drops the sessions of an id, every key's (the next request under it starts it again), or every session without an id. */
  reset(sessionId?: string): void;
  sessionCount(): number;
  /** The state of a session (`default` without an id) for the key that used it last; an error when no request made it yet. */
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
  // A seed or a saved state is judged as a put is (D-395): refused here, never a 500 on its session's first request.
  const seed = options.seed && answerable(options.seed);
  if (seed && seed.deployments.length > maxDeployments)
    throw new RangeError(
      `The seed holds ${seed.deployments.length} deployments, more than a session's ${maxDeployments}.`,
    );
  // States waiting for their session: saved ones by id and owner hash, restored ones by id alone.
  const waiting = new Map(
    (options.saved ?? []).map((saved) => [`${saved.session}\n${saved.owner_sha256}`, answerable(saved.state)]),
  );
  const restored = new Map<string, MockState>();
  const newSession = async (id?: string, owner?: string): Promise<SandboxSession> => {
    const session = await createSandboxSession(config, logger, maxDeployments);
    if (id === undefined || owner === undefined) return session;
    const savedKey = `${id}\n${hashApiKey(owner)}`;
    const state = waiting.get(savedKey) ?? restored.get(id) ?? seed;
    waiting.delete(savedKey);
    restored.delete(id);
    if (state) await session.restore(owner, state);
    return session;
  };
  const sessions = new SessionTable<Promise<SandboxSession>>(
    {
      maxSessions: options.maxSessions ?? sandboxPolicy.maxSessions,
      maxSessionsPerKey: options.maxSessionsPerKey ?? sandboxPolicy.maxSessionsPerKey,
      maxBytes: options.maxBytesInAll ?? sandboxPolicy.maxBytes,
      idleMs: options.sessionIdleMs ?? sandboxPolicy.idleMs,
      maxSessionsPerAddress: options.maxSessionsPerAddress ?? sandboxPolicy.maxSessionsPerAddress,
    },
    (id, owner) =>
      newSession(id, owner).catch((error: unknown) => {
        // A session whose seed could not be loaded (more than the cap with the examples) is not kept: the next request tries again.
        sessions.drop(id, owner);
        throw error;
      }),
    undefined,
    options.now,
  );
  // Requests without a key change nothing (every operation is 401 without one): they share one session outside the table.
  let keyless: Promise<SandboxSession> | undefined;
  const reset = (sessionId?: string): void => {
    if (sessionId === undefined) sessions.clear();
    else for (const [id, owner] of [...sessions.entries()]) if (id === sessionId) sessions.drop(id, owner);
    onChange();
  };
  /** 401 without a key: a session is always the key's own (D-396), so no other refusal is needed. */
  const refusal = (key: string, what: string): Response | undefined =>
    key === "" ? problemResponse(unauthenticated(`Send the X-Api-Key whose session to ${what}.`)) : undefined;
  /** Drops the key's own session of that id. */
  const resetOwned = (sessionId: string, key: string): Response => {
    const refused = refusal(key, "reset");
    if (refused) return refused;
    sessions.drop(sessionId, key);
    onChange();
    return new Response(null, { status: 204 });
  };
  /** The session's budget spent: a 503 that says how to go on. */
  const budgetSpent = (): Response =>
    problemResponse(
      new HttpProblem(
        "serviceUnavailable",
        `This mock session has taken its budget of ${maxBytes} bytes of writes and states; reset it (POST /__mock/reset) or use another X-Mock-Session.`,
      ),
    );
  /** The sessions' bytes in all spent, every key holding one (D-470): a 429 until one expires or is reset. */
  const roomSpent = (): Response =>
    problemResponse(
      new HttpProblem(
        "tooManyRequests",
        "The mock's sessions hold all the bytes it keeps; reset a session of yours (POST /__mock/reset) or try again later.",
        undefined,
        { "Retry-After": String(sessions.secondsUntilRoom()) },
      ),
    );
  /** `/__mock/state` and `/__mock/clock` for the session's owner (D-320, D-321). */
  const stateAdmin = async (
    request: Request,
    path: string,
    sessionId: string,
    key: string,
    address: string | undefined,
  ): Promise<Response> => {
    const route = path === "/__mock/state" ? { GET: true, PUT: true } : { POST: true };
    if (!(request.method in route))
      return problemResponse(
        new HttpProblem("methodNotAllowed", `${path} takes ${Object.keys(route).join(" and ")}.`, undefined, {
          Allow: Object.keys(route).join(", "),
        }),
      );
    const refused = refusal(key, path === "/__mock/state" ? "read or replace the state of" : "move the clock of");
    if (refused) return refused;
    if (request.method === "GET")
      return Response.json(await (await sessions.session(sessionId, key, address)).snapshot(key));
    const bytes = new Uint8Array(await request.arrayBuffer());
    // a body declared past the limit is refused by its length: the Node server does not wait for it (D-30, D-472)
    if (bytes.byteLength > bodyLimitBytes || Number(request.headers.get("content-length")) > bodyLimitBytes)
      return problemResponse(
        new HttpProblem("payloadTooLarge", `The body is larger than ${bodyLimitBytes} bytes; send a smaller state.`),
      );
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return problemResponse(new HttpProblem("malformedJson", "The body is not JSON."));
    }
    // a state put counts against the session's budget: the session then holds that state, and what it took before is gone (D-396)
    if (request.method === "PUT" && bytes.byteLength > maxBytes) return budgetSpent();
    // the sessions' bytes in all spent refuse a put before a session is made for it (D-470)
    if (request.method === "PUT" && sessions.overBytes()) return roomSpent();
    const session = await sessions.session(sessionId, key, address);
    if (request.method === "PUT") {
      try {
        await session.restore(key, answerable(body));
      } catch (error) {
        if (error instanceof StoreFull) return problemResponse(storeFullProblem(error)!);
        if (!(error instanceof MockStateError)) throw error;
        return problemResponse(
          new HttpProblem("validation", `The state is not a mock state the sandbox can answer from: ${error.message}.`),
        );
      }
      sessions.charge(sessionId, key, bytes.byteLength, true);
      onChange();
      return new Response(null, { status: 204 });
    }
    const advance = (body as { advance_ms?: unknown } | null)?.advance_ms;
    if (!Number.isSafeInteger(advance) || (advance as number) < 0)
      return problemResponse(
        new HttpProblem("validation", 'Send {"advance_ms": N}, N a whole number of milliseconds, 0 or more.'),
      );
    if (session.advancedMs + (advance as number) > maxClockAdvanceMs)
      return problemResponse(
        new HttpProblem(
          "validation",
          `The clock runs at most ${maxClockAdvanceMs} ms (100 years) ahead; it is ${session.advancedMs} ms ahead now (D-395).`,
        ),
      );
    session.advancedMs += advance as number;
    onChange();
    return Response.json({ clock_advanced_ms: session.advancedMs });
  };
  const cors = options.cors ?? mockCorsPolicy({});
  const answer: AddressedFetchHandler = async (request, sent, address) => {
    const sessionId = request.headers.get(sessionHeader) ?? "default";
    const key = withoutHttpWhitespace(request.headers.get("x-api-key") ?? "");
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/__mock/reset") return resetOwned(sessionId, key);
    if (path === "/__mock/state" || path === "/__mock/clock") return stateAdmin(request, path, sessionId, key, address);
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
    // two X-Api-Key lines name no key: the pipeline refuses them (D-397), in no key's session
    if (key === "" || (sent?.keyFields ?? 0) > 1) {
      keyless ??= newSession();
      return (await keyless).handle(request, sent);
    }
    const writes = request.method === "POST";
    if (writes && sessions.overBytes()) return roomSpent();
    const session = await sessions.session(sessionId, key, address);
    if (writes && sessions.bytesOf(sessionId, key) >= maxBytes) return budgetSpent();
    const response = await session.handle(request, sent);
    if (!writes || response.status >= 300) return response;
    const body = await response.arrayBuffer();
    sessions.charge(sessionId, key, body.byteLength);
    onChange();
    return new Response(body, { status: response.status, headers: response.headers });
  };
  // Every path answers, a failure as a 500 problem: a rejection would reach the caller's process (D-271).
  const answerAlways: AddressedFetchHandler = async (request, sent, address) => {
    try {
      return await answer(request, sent, address);
    } catch (error) {
      if (error instanceof StoreFull) return problemResponse(storeFullProblem(error)!);
      if (error instanceof SessionsFull)
        return problemResponse(
          new HttpProblem("tooManyRequests", error.message, undefined, {
            "Retry-After": String(error.retryAfterSeconds),
          }),
        );
      logger.error({ err: errorSummary(error) }, "unhandled error");
      return problemResponse(
        new HttpProblem("internal", "The sandbox failed to process the request; try again later."),
      );
    }
  };
  const handle: AddressedFetchHandler = (request, sent, address) =>
    withCors(cors, request, () => answerAlways(request, sent, address));
  /** The session `id` of the key that used it last, and that key, or an error naming what to do first. */
  const existing = async (id: string): Promise<{ session: SandboxSession; owner: string }> => {
    const owner = sessions.lastOwnerOf(id);
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
      const checked = answerable(state);
      if (sessions.lastOwnerOf(sessionId) === undefined) restored.set(sessionId, checked);
      else {
        const { session, owner } = await existing(sessionId);
        await session.restore(owner, checked);
      }
      onChange();
    },
    async advanceClock(ms, sessionId = "default") {
      if (!Number.isSafeInteger(ms) || ms < 0)
        throw new RangeError(`advance by whole milliseconds, 0 or more; got ${ms}`);
      const { session } = await existing(sessionId);
      if (session.advancedMs + ms > maxClockAdvanceMs)
        throw new RangeError(`the clock runs at most ${maxClockAdvanceMs} ms (100 years) ahead (D-395)`);
      session.advancedMs += ms;
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

/** The state parsed and judged as the sandbox answers from it, or a MockStateError naming the first wrong pointer (D-395). */
function answerable(state: unknown): MockState {
  const checked = parseMockState(state);
  assertAnswerable(checked);
  return checked;
}
