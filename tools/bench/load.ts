/** Drives one benchmark row with autocannon (requests/s, p50 and p99 per row, bounded in time). */

import autocannon, { type RequestSpec, type Result } from "autocannon";
import { quantile } from "../harness/quantile.js";
import { type ProcessUsage, processUsage } from "./server-cpu.js";

export interface LoadOptions {
  url: string;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A new body for each request (e.g. a unique deployment name); undefined for none. */
  body?: () => string;
  connections: number;
  /** Seconds of measured load; ignored when `amount` is set. */
  durationS: number;
  /** Stop after this many requests instead of after `durationS`. */
  amount?: number;
  /** Seconds of unmeasured load before the measured run (JIT, caches, connection set-up). */
  warmupS: number;
  /** The server's process id: its CPU time over the measured run is reported per request. */
  pid?: number;
}

/** What one measured run produced. Latencies in milliseconds. */
export interface LoadFigures {
  requestsPerS: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  durationS: number;
  non2xx: number;
  errors: number;
  statusCounts: Record<string, number>;
  /** Requests completed during the unmeasured warm-up. */
  warmupRequests: number;
  /** The server process's CPU time (user + system) over the measured run, in ms, when its pid was given. */
  serverCpuMs?: number;
  /** serverCpuMs over the completed requests, in microseconds. */
  cpuUsPerRequest?: number;
  /** The server process's minor page faults over the measured run, per completed request. */
  faultsPerRequest?: number;
}

/** Runs warm-up then the measured load and returns its figures. */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const warmup =
    options.warmupS > 0 ? await fire({ ...options, amount: undefined, durationS: options.warmupS }) : undefined;
  const usageBefore = options.pid === undefined ? undefined : processUsage(options.pid);
  const measured = await fire(options);
  const usageAfter = options.pid === undefined ? undefined : processUsage(options.pid);
  const result = {
    ...figures(measured.result, measured.latenciesMs),
    warmupRequests: warmup ? figures(warmup.result, []).requests : 0,
  };
  if (usageBefore === undefined || usageAfter === undefined) return result;
  return { ...result, ...serverUsage(usageBefore, usageAfter, result.requests) };
}

/** The server's CPU over a run, and per completed request its CPU in microseconds and its minor page faults. */
export function serverUsage(
  before: ProcessUsage,
  after: ProcessUsage,
  requests: number,
): Pick<LoadFigures, "serverCpuMs" | "cpuUsPerRequest" | "faultsPerRequest"> {
  const cpuMs = after.cpuMs - before.cpuMs;
  if (requests === 0) return { serverCpuMs: cpuMs };
  return {
    serverCpuMs: cpuMs,
    cpuUsPerRequest: (cpuMs * 1000) / requests,
    faultsPerRequest: (after.minorFaults - before.minorFaults) / requests,
  };
}

/** One autocannon run, with every response time (autocannon's own histogram keeps whole milliseconds only). */
function fire(options: LoadOptions): Promise<{ result: Result; latenciesMs: number[] }> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  const makeBody = options.body;
  const request: RequestSpec = { method: options.method ?? "GET", path: options.path, headers };
  if (makeBody) {
    headers["content-type"] = "application/json";
    // A new body per request: autocannon rebuilds the raw request from what setupRequest returns.
    request.setupRequest = (req) => ({ ...req, body: makeBody() });
  }
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS }),
    requests: [request],
    timeout: 30,
  });
  const latenciesMs: number[] = [];
  instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) =>
    latenciesMs.push(responseTimeMs),
  );
  return new Promise((resolveRun, reject) => instance.then((result) => resolveRun({ result, latenciesMs }), reject));
}

/**
 * Turns an autocannon result into the row's figures: requests/s counts completed requests over the run
 * time; p50/p99 come from the recorded response times when there are any, else from autocannon's histogram.
 */
export function figures(
  result: Pick<Result, "latency" | "duration" | "non2xx" | "errors" | "statusCodeStats">,
  latenciesMs: number[],
): LoadFigures {
  const statusCounts: Record<string, number> = {};
  let completed = 0;
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statusCounts[status] = Number(stat.count);
    completed += Number(stat.count);
  }
  return {
    requestsPerS: result.duration > 0 ? completed / result.duration : 0,
    p50Ms: latenciesMs.length ? quantile(latenciesMs, 0.5) : result.latency.p50,
    p99Ms: latenciesMs.length ? quantile(latenciesMs, 0.99) : result.latency.p99,
    requests: completed,
    durationS: result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCounts,
    warmupRequests: 0,
  };
}
