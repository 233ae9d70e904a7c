/**
 * The runtime of generated/client.ts: the authenticated openapi-fetch client, `unwrap` and `ProblemError` (D-75).
 * A real source file so that the compiler checks it; tools/generate/generate-client.ts copies it below the generated header.
 */

import type { Client } from "openapi-fetch";
import createFetchClient from "openapi-fetch";
import type { components, paths } from "../../generated/types.js";

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
  /** A fetch implementation; defaults to the global one. */
  fetch?: typeof globalThis.fetch;
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

/** Creates a typed client that authenticates every request. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const client = createFetchClient<ClientPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch,
    headers: { Accept: "application/json" },
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
