/**
 * Cross-origin access for browsers (D-132), one policy for the reference server, the Prism mock's front and the sandbox:
 * an allow-list from `CORS_ORIGINS`, loopback origins in demo mode, preflights answered with the contract's methods and
 * request headers, `Retry-After` and `X-Request-Id` exposed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, Next } from "koa";
import { operationList } from "../contract/index.js";

/** Which origins may call. */
export interface CorsPolicy {
  /** Exact origins (`scheme://host[:port]`) allowed in any mode. */
  origins: readonly string[];
  /** Whether every http origin on a loopback host (localhost, 127.0.0.1, [::1]), any port, is allowed (demo mode). */
  loopback: boolean;
  /** Request headers a preflight may ask for besides the contract's (a mock's own, e.g. its session header); often none. */
  extraRequestHeaders: readonly string[];
  /** Methods a preflight may ask for besides the contract's (the sandbox's own API: PUT and DELETE); often none. */
  extraMethods: readonly string[];
}

/** Methods of the contract's operations. */
const contractMethods = [...new Set(operationList.map((operation) => operation.method.toUpperCase()))];
/** Request headers the contract and the mocks read; a preflight asking for others is answered with these and the policy's extra ones only. */
const allowHeaders = "Content-Type, X-Api-Key, X-Tenant-Id, Prefer, X-Request-Id";
/** Response headers a script may read besides the safelisted ones. */
const exposeHeaders = "Retry-After, X-Request-Id, Allow";
/** How long a browser may cache a preflight, in seconds. */
const maxAge = "600";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The policy from `CORS_ORIGINS` (comma-separated origins) and the demo switch; throws on an entry that is not an origin. */
export function corsPolicyFromEnv(
  env: NodeJS.ProcessEnv,
  demo: boolean,
  extraRequestHeaders: readonly string[] = [],
  extraMethods: readonly string[] = [],
): CorsPolicy {
  const origins = (env.CORS_ORIGINS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin)
      throw new Error(`CORS_ORIGINS: '${origin}' is not an origin (scheme://host[:port], no path)`);
  }
  return { origins, loopback: demo, extraRequestHeaders, extraMethods };
}

function allowed(policy: CorsPolicy, origin: string): boolean {
  if (policy.origins.includes(origin)) return true;
  if (!policy.loopback || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return url.protocol === "http:" && url.origin === origin && loopbackHosts.has(url.hostname);
}

/** What to do with one request: answer a preflight (204), or add headers to the answer; undefined when no CORS applies. */
export function corsAnswer(
  policy: CorsPolicy,
  request: { method: string; origin: string | undefined; requestMethod: string | undefined },
): { preflight: boolean; headers: Record<string, string> } | undefined {
  const { origin } = request;
  // an empty Origin is no origin: it is neither listed (empty entries are dropped) nor parses as a URL
  if (origin === undefined || !allowed(policy, origin)) return undefined;
  const base = { "Access-Control-Allow-Origin": origin, Vary: "Origin" };
  if (request.method === "OPTIONS" && request.requestMethod !== undefined && request.requestMethod !== "")
    return {
      preflight: true,
      headers: {
        ...base,
        "Access-Control-Allow-Methods": [...contractMethods, ...policy.extraMethods].join(", "),
        "Access-Control-Allow-Headers": [allowHeaders, ...policy.extraRequestHeaders].join(", "),
        "Access-Control-Max-Age": maxAge,
      },
    };
  return { preflight: false, headers: { ...base, "Access-Control-Expose-Headers": exposeHeaders } };
}

/** Koa middleware: answers an allowed preflight with 204, adds the CORS headers to every other answer to an allowed origin. */
export function corsMiddleware(policy: CorsPolicy) {
  return async function cors(ctx: Context, next: Next): Promise<void> {
    const answer = corsAnswer(policy, {
      method: ctx.method,
      origin: ctx.get("Origin"),
      requestMethod: ctx.get("Access-Control-Request-Method"),
    });
    if (answer === undefined) return next();
    ctx.set(answer.headers);
    if (answer.preflight) {
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/** The same for a fetch handler (the in-memory sandbox, the stateful MSW handlers): answers an allowed preflight with 204, else adds the headers to next's answer. */
export async function withCors(policy: CorsPolicy, request: Request, next: () => Promise<Response>): Promise<Response> {
  const answer = corsAnswer(policy, {
    method: request.method,
    origin: request.headers.get("origin") ?? undefined,
    requestMethod: request.headers.get("access-control-request-method") ?? undefined,
  });
  if (answer === undefined) return next();
  if (answer.preflight) return new Response(null, { status: 204, headers: answer.headers });
  const response = await next();
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The same for a plain Node handler; returns true when it answered the request (a preflight). */
export function applyCors(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse): boolean {
  const answer = corsAnswer(policy, {
    method: req.method ?? "GET",
    origin: req.headers.origin,
    requestMethod: req.headers["access-control-request-method"],
  });
  if (answer === undefined) return false;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (!answer.preflight) return false;
  res.writeHead(204).end();
  return true;
}
