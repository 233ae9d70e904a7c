/**
 * Fault and latency modes of both mocks (D-80), for client teams testing retries and timeouts:
 * `--latency 50-300` (uniform, ms), `--fail-rate 0.05` (503 with Retry-After), and per request
 * `Prefer: delay=<ms>` (at most 30 s, D-114) and `Prefer: fault=reset|timeout|503|429`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePrefer } from "../../contract/index.js";
import { maxPreferDelayMs, timeoutHoldMs } from "./fault-bounds.js";

/** A plain Node request handler. */
type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The fault and latency settings of a mock. */
export interface FaultOptions {
  /** Added to every answer, uniform in [min, max] milliseconds. */
  latency?: { min: number; max: number };
  /** Share of requests answered 503 with Retry-After, from 0 to 1. */
  failRate?: number;
  /** How long a `fault=timeout` request is held before its connection is closed. */
  timeoutHoldMs?: number;
  /** Random numbers in [0, 1); tests pass their own. */
  random?: () => number;
}

/** The faults a request can ask for with `Prefer: fault=`. */
const faults = ["reset", "timeout", "503", "429"] as const;

/** Parses `--latency`: `100` or `50-300`. */
export function parseLatency(text: string): { min: number; max: number } {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`--latency must be milliseconds, like 100 or 50-300, not '${text}'`);
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min) throw new Error(`--latency ${text}: the upper bound is below the lower one`);
  return { min, max };
}

/** Parses `--fail-rate`: a number from 0 to 1. */
export function parseFailRate(text: string): number {
  const rate = Number(text);
  if (!/^\d*\.?\d+$/.test(text.trim()) || rate < 0 || rate > 1)
    throw new Error(`--fail-rate must be a number from 0 to 1, not '${text}'`);
  return rate;
}

/** Wraps a handler with the fault and latency modes. */
export function withFaults(handler: Handler, options: FaultOptions = {}): Handler {
  const random = options.random ?? Math.random;
  return (request, response) => {
    const prefer = parsePrefer(headerValue(request, "prefer"));
    const fault = prefer.fault ?? (options.failRate && random() < options.failRate ? "503" : undefined);
    const delay =
      (prefer.delay === undefined ? undefined : Math.min(prefer.delay, maxPreferDelayMs)) ??
      (options.latency
        ? options.latency.min + Math.floor(random() * (options.latency.max - options.latency.min + 1))
        : 0);
    const proceed = () => {
      if (fault === undefined) return handler(request, response);
      switch (fault) {
        case "reset":
          request.socket.destroy();
          return;
        case "timeout": {
          const hold = setTimeout(() => request.socket.destroy(), options.timeoutHoldMs ?? timeoutHoldMs);
          request.socket.once("close", () => clearTimeout(hold));
          return;
        }
        case "503":
          return injectedProblem(
            response,
            503,
            "Service Unavailable",
            "The mock answers 503 as asked (fault mode); retry after the time in Retry-After.",
          );
        case "429":
          return injectedProblem(
            response,
            429,
            "Too Many Requests",
            "The mock answers 429 as asked (fault mode); retry after the time in Retry-After.",
          );
        default:
          return injectedProblem(
            response,
            400,
            "Bad Request",
            `Prefer: fault=${fault} is not a fault of the mock; use one of ${faults.join(", ")}.`,
          );
      }
    };
    if (delay > 0) setTimeout(proceed, delay);
    else proceed();
  };
}

/** An injected fault is outside the contract (D-80): an RFC 9457 `about:blank` problem, whose title is the status phrase. */
function injectedProblem(response: ServerResponse, status: number, title: string, detail: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/problem+json");
  if (status === 503 || status === 429) response.setHeader("Retry-After", "1");
  response.end(JSON.stringify({ type: "about:blank", title, status, detail }));
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
