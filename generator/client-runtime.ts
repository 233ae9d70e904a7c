/**
 * The runtime of generated/client.ts: the authenticated openapi-fetch client, `unwrap` and `ProblemError` (D-75).
 * A real source file so that the compiler checks it; generator/generate-client.ts copies it below the generated header.
 */

import type { Client } from "openapi-fetch";
import createFetchClient from "openapi-fetch";
import type { components, paths } from "../generated/types.js";

/** The problem detail of an error answer (D-16); generated/client.ts also exports it as `Problem`. */
type ProblemBody = components["schemas"]["Problem"];

/** Whether array query parameters repeat their name (`a=1&a=2`) or join their values with commas; the generator writes the contract's setting here. */
const explodeArrays: boolean = false;

/** The paths the client takes: the contract's, with the create-deployment body narrowed to one shape per source by the generator (D-201). */
type ClientPaths = paths;

/**
 * The typed client: `client.GET("/v2/deployments", { params: { query } })` and so on. Every media
 * type counts, so that `error` is the `application/problem+json` Problem of the error responses.
 */
export type ServiceClient = Client<ClientPaths>;

/** How to reach a service: its base URL, an API key, and optionally a tenant. */
export interface ServiceClientOptions {
  /** Base URL of the service, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `X-Api-Key` on every request. */
  apiKey: string;
  /** Sent as `X-Tenant-Id` on every request when set. */
  tenantId?: string;
  /**
   * Sent on every request, e.g. `{ "X-Mock-Session": "s1" }` for a mock session; a call's own `headers` win over them,
   * and `apiKey` and `tenantId` over both (they are set last).
   */
  headers?: Readonly<Record<string, string>>;
  /** A fetch implementation; defaults to the global one. */
  fetch?: typeof globalThis.fetch;
  /**
   * Repeats a read (GET, HEAD) answered 429 or 503, waiting what `Retry-After` asks (D-263). Writes are never
   * repeated: the contract documents no write's 503 as "nothing stored".
   */
  retry?: RetryOptions;
  /** Gives up on a request whose answer's headers have not arrived within this many ms, with a `TimeoutError`. */
  timeoutMs?: number;
}

/** How `createServiceClient` repeats a read answered 429 or 503 (D-263). */
export interface RetryOptions {
  /** The most times a request is sent, the first included (1: never repeated). */
  attempts: number;
  /** The longest wait before a repeat (default 30,000): an answer asking for a longer `Retry-After` is returned as it is. */
  maxDelayMs?: number;
}

/** A request that got no answer within `timeoutMs`: no answer at all, unlike a `ProblemError`. */
export class TimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} ${url}: no answer within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

/** The statuses whose answers say "try again later", with `Retry-After` (D-81, D-113, D-114). */
const retryStatuses = new Set([429, 503]);
/** The methods the client repeats: reads only (D-263). */
const repeatable = new Set(["GET", "HEAD"]);

/** The ms `Retry-After` asks to wait (seconds or an HTTP date); without it, 200 ms doubling per attempt. */
function retryDelay(header: string | null, attempt: number): number {
  if (header !== null && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = header === null ? Number.NaN : Date.parse(header);
  if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  return 200 * 2 ** (attempt - 1);
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Sends one request, failing with a TimeoutError when its answer's headers take longer than `timeoutMs`. */
async function sendOnce(
  send: typeof globalThis.fetch,
  request: Request,
  init: RequestInit | undefined,
  timeoutMs: number | undefined,
): Promise<Response> {
  if (timeoutMs === undefined) return send(request, init);
  const timer = AbortSignal.timeout(timeoutMs);
  try {
    return await send(new Request(request, { signal: AbortSignal.any([request.signal, timer]) }), init);
  } catch (error) {
    if (timer.aborted && !request.signal.aborted) throw new TimeoutError(timeoutMs, request.method, request.url);
    throw error;
  }
}

/** The fetch of a client with `retry` or `timeoutMs`: repeats reads answered 429 or 503 and bounds each wait for an answer. */
function resilientFetch(send: typeof globalThis.fetch, options: ServiceClientOptions): typeof globalThis.fetch {
  const attempts = Math.max(1, Math.floor(options.retry?.attempts ?? 1));
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const tries = repeatable.has(request.method) ? attempts : 1;
    for (let attempt = 1; ; attempt++) {
      const response = await sendOnce(send, tries > 1 ? request.clone() : request, init, options.timeoutMs);
      if (attempt >= tries || !retryStatuses.has(response.status)) return response;
      const delay = retryDelay(response.headers.get("Retry-After"), attempt);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(delay, request.signal);
    }
  };
}

/** A non-2xx answer of the service, with its RFC 9457 problem detail when the body carried one. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody | undefined,
    readonly response: Response,
  ) {
    super(problem ? `${status} ${problem.title}: ${problem.detail}` : `HTTP ${status}`);
    this.name = "ProblemError";
  }
}

/**
 * Creates a typed client that authenticates every request. A missing or empty key is an error here (D-394), never
 * a request with `X-Api-Key: undefined`: `createServiceClient({ apiKey: process.env.API_KEY })` with the variable unset throws.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  if (typeof options.apiKey !== "string" || options.apiKey === "")
    throw new TypeError(
      `createServiceClient needs an API key: apiKey is ${typeof options.apiKey === "string" ? "empty" : String(options.apiKey)} (is the environment variable that holds it set?)`,
    );
  const client = createFetchClient<ClientPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch:
      options.retry || options.timeoutMs !== undefined
        ? resilientFetch(options.fetch ?? globalThis.fetch, options)
        : options.fetch,
    headers: { Accept: "application/json", ...options.headers },
    querySerializer: { array: { style: "form", explode: explodeArrays } },
  });
  client.use({
    onRequest({ request }) {
      request.headers.set("X-Api-Key", options.apiKey);
      if (options.tenantId !== undefined) request.headers.set("X-Tenant-Id", options.tenantId);
      return request;
    },
  });
  return client;
}

/** Resolves to the data of a successful call, or rejects with a ProblemError. */
export async function unwrap<Data>(call: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ProblemError(response.status, isProblem(error) ? error : undefined, response);
  return data as Data;
}

/** Whether a value has the shape of a problem detail. */
export function isProblem(value: unknown): value is ProblemBody {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ProblemBody).type === "string" &&
    typeof (value as ProblemBody).status === "number"
  );
}

/** The query of the deployment list (every parameter but the page's `limit` and `offset` is a filter). */
export type DeploymentListQuery = NonNullable<ClientPaths["/v2/deployments"]["get"]["parameters"]["query"]>;

/** Options of `paginate`. */
export interface PaginateOptions {
  /** Deployments per request (`limit`); default the query's `limit`, else 100. */
  pageSize?: number;
  /** Stops the walk: the pending request is aborted, and the iteration rejects with the signal's reason at its next step. */
  signal?: AbortSignal;
}

/**
 * Every deployment the list query matches, page after page from the query's `offset` (default 0) by the
 * offset each page returns, until `nextPageOffset` says the list ends (D-09).
 */
export async function* paginate(
  client: ServiceClient,
  query: Omit<DeploymentListQuery, "limit"> & { limit?: number } = {},
  options: PaginateOptions = {},
): AsyncGenerator<components["schemas"]["Deployment"], void, undefined> {
  const limit = options.pageSize ?? query.limit ?? 100;
  let offset = query.offset ?? 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await unwrap(
      client.GET("/v2/deployments", { params: { query: { ...query, limit, offset } }, signal: options.signal }),
    );
    for (const deployment of page.resources) {
      options.signal?.throwIfAborted();
      yield deployment;
    }
    const next = nextPageOffset(page, limit, offset);
    if (next === undefined) return;
    offset = next;
  }
}

/**
 * The `offset` of the page after a list page asked with `limit` and `offset`, or undefined at the end (D-09): the end
 * is an empty page or one shorter than its limit; a returned offset that does not move forward ends it too, so that a
 * faulty server cannot make a walk loop. `paginate` and the infinite query of `deployment-client/react-query` use it.
 */
export function nextPageOffset(
  page: { resources: readonly unknown[]; offset: number },
  limit: number,
  offset: number,
): number | undefined {
  if (page.resources.length === 0 || page.resources.length < limit || page.offset <= offset) return undefined;
  return page.offset;
}
