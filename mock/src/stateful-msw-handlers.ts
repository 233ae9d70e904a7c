/**
 * Stateful MSW handlers (D-172): the sandbox (D-79) in-process, the server's own validation, rules and
 * services over the in-memory store (D-170) through its fetch handler (D-171). A create is in the next
 * list; `X-Mock-Session` isolates sessions; `POST /__mock/reset` and `DELETE /__mock/sessions/<id>` work
 * as on the sandbox, and `reset()` does the same from a test. The fault and latency modes of D-80 apply:
 * `Prefer: delay=<ms>`, `Prefer: fault=reset|timeout|503|429`, and the `latency` and `failRate` options.
 * A test seeds sessions (`seed`), saves and restores one (`snapshot()`, `restore()`) and moves its clock
 * (`clock.advance()`), as `/__mock/state` and `/__mock/clock` do on the network sandbox (D-320, D-321).
 */
import { delay, type HttpHandler, HttpResponse, http } from "msw";
import { parsePrefer } from "../../contract/index.js";
import type { Hosting } from "../../server/engine.js";
import { createMemorySandbox } from "./engine/memory-sandbox.js";
import type { MockState } from "./engine/mock-state.js";
import { maxPreferDelayMs, timeoutHoldMs } from "./fault-bounds.js";

/** Options of the stateful handlers. */
export interface StatefulHandlerOptions {
  /** Where the handlers answer, e.g. `http://api.test`; a path after the origin is a prefix of every route. */
  baseUrl: string;
  /** Milliseconds until a new deployment turns READY (2,000 by default, as the sandbox). */
  readyAfterMs?: number;
  hosting?: Hosting;
  /**
   * Sessions kept at once (100 by default): a full table drops the asking key's own least recently used session, and
   * answers a key holding none 429, never dropping another key's (D-470). In-process requests have no client address,
   * so the sandbox's limit per address does not apply here (D-471); idle sessions expire after 30 minutes.
   */
  maxSessions?: number;
  /** Deployments one session holds, seeds included (1,000 by default); a create beyond it answers 503. */
  maxDeploymentsPerSession?: number;
  /** Added to every answer, uniform in [min, max] milliseconds (D-80). */
  latency?: { min: number; max: number };
  /** Share of requests answered 503 with Retry-After, from 0 to 1 (D-80). */
  failRate?: number;
  /** How long a `Prefer: fault=timeout` request is held before it fails as a network error (60 s by default). */
  timeoutHoldMs?: number;
  /** Random numbers in [0, 1); tests pass their own. */
  random?: () => number;
  /** The state every new session starts from, in its owner key's tenant (D-320); the titled examples without it. */
  seed?: MockState;
}

/** The handlers (spread them into setupServer or setupWorker) and what a test needs besides them. */
export type StatefulHandlers = HttpHandler[] & {
  /** Drops one session's state (the next request starts it afresh), or every session's without an id. */
  reset(sessionId?: string): void;
  sessionCount(): number;
  /** The state of a session (`default`, the one without X-Mock-Session, unless named), for its owner key. */
  snapshot(sessionId?: string): Promise<MockState>;
  /** Replaces a session's state by a snapshot or a seed; a session not made yet starts from it. */
  restore(state: MockState, sessionId?: string): Promise<void>;
  /** The sessions' clocks: `advance(ms)` moves one forward, so what is due by then (READY) has happened. */
  clock: { advance(ms: number, sessionId?: string): Promise<void> };
};

/** The faults a request can ask for with `Prefer: fault=`. */
const faults = ["reset", "timeout", "503", "429"];

/** One catch-all handler under the base URL, answering as the sandbox does. */
export function statefulHandlers(options: StatefulHandlerOptions): StatefulHandlers {
  const sandbox = createMemorySandbox({
    hosting: options.hosting,
    readyAfterMs: options.readyAfterMs,
    maxSessions: options.maxSessions,
    maxDeploymentsPerSession: options.maxDeploymentsPerSession,
    seed: options.seed,
  });
  const random = options.random ?? Math.random;
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  const handler = http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
    const prefer = parsePrefer(request.headers.get("prefer") ?? undefined);
    const fault = prefer.fault ?? (options.failRate && random() < options.failRate ? "503" : undefined);
    const wait =
      (prefer.delay === undefined ? undefined : Math.min(prefer.delay, maxPreferDelayMs)) ??
      (options.latency
        ? options.latency.min + Math.floor(random() * (options.latency.max - options.latency.min + 1))
        : 0);
    if (wait > 0) await delay(wait);
    if (fault === "reset") return HttpResponse.error();
    if (fault === "timeout") {
      // Bounded like the network mock's (D-272): a test that forgets its own timeout still ends.
      await delay(options.timeoutHoldMs ?? timeoutHoldMs);
      return HttpResponse.error();
    }
    if (fault === "503")
      return injectedProblem(
        503,
        "Service Unavailable",
        "The mock answers 503 as asked (fault mode); retry after the time in Retry-After.",
      );
    if (fault === "429")
      return injectedProblem(
        429,
        "Too Many Requests",
        "The mock answers 429 as asked (fault mode); retry after the time in Retry-After.",
      );
    if (fault !== undefined)
      return injectedProblem(
        400,
        "Bad Request",
        `Prefer: fault=${fault} is not a fault of the mock; use one of ${faults.join(", ")}.`,
      );
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || "/";
    const forwarded = prefix === "" ? request : new Request(url, request);
    return sandbox.handle(forwarded);
  });
  return Object.assign([handler], {
    reset: sandbox.reset,
    sessionCount: sandbox.sessionCount,
    snapshot: sandbox.snapshot,
    restore: sandbox.restore,
    clock: { advance: sandbox.advanceClock },
  });
}

/** An injected fault is outside the contract (D-80): an RFC 9457 `about:blank` problem, whose title is the status phrase. */
function injectedProblem(status: number, title: string, detail: string): Response {
  return new HttpResponse(JSON.stringify({ type: "about:blank", title, status, detail }), {
    status,
    headers: {
      "Content-Type": "application/problem+json",
      ...(status === 503 || status === 429 ? { "Retry-After": "1" } : {}),
    },
  });
}
