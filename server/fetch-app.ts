/**
 * The server's request pipeline as a fetch handler, `(Request) => Promise<Response>`, with no Node HTTP
 * server and no Koa (D-171): the same route table, validators, services and problem details as the Koa
 * app (app.ts, route-table.ts), in the same order: authenticate (401), parameters (422), tenant (403),
 * body (415, 413, 400, 422), handler, response check; unknown paths 404, other methods 405 with Allow.
 */
import { type ContractOperation, matchPath, type OperationId } from "../contract/index.js";
import { selectTenant } from "./auth/authenticate.js";
import type { Dependencies } from "./dependencies.js";
import { HttpProblem } from "./errors/http-problem.js";
import { errorSummary } from "./errors/problem-middleware.js";
import { JsonText } from "./presenters/json-text.js";
import { routeTable } from "./routes/index.js";
import type { Handler } from "./routes/route-table.js";
import { createServices, type Services } from "./services/index.js";
import { StoreFull } from "./storage/memory-store.js";
import {
  bodyLimitBytes,
  isJsonContentType,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "./validation/json-body.js";
import { compileOperationValidators } from "./validation/operation-validators.js";

/** A fetch-style handler of the whole interface. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The headers every answer carries, as app.ts sets them. */
const commonHeaders = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** The app over its dependencies: the same services the Koa app would build. */
export function createFetchApp(deps: Dependencies): FetchHandler {
  const services = createServices(deps);
  return async (request) => {
    const url = new URL(request.url);
    try {
      if (url.pathname === "/healthz" && (request.method === "GET" || request.method === "HEAD"))
        return await health(deps, request.method);
      const match = matchPath(request.method, url.pathname);
      if (match.kind === "operation")
        return await runOperation(deps, services, match.operation, request, url, match.pathParameters);
      const allow =
        match.kind === "method-not-allowed" ? match.allow : url.pathname === "/healthz" ? ["GET", "HEAD"] : undefined;
      if (!allow) throw new HttpProblem("notFound", `No route ${request.method} ${url.pathname}.`);
      const allowHeader = allow.join(", ");
      if (request.method === "OPTIONS")
        return new Response(null, { status: 204, headers: { ...commonHeaders, Allow: allowHeader } });
      throw new HttpProblem(
        "methodNotAllowed",
        `${request.method} is not allowed on ${url.pathname}; allowed: ${allowHeader}.`,
        undefined,
        { Allow: allowHeader },
      );
    } catch (error) {
      return problemResponse(asProblem(deps, error));
    }
  };
}

/** One operation of the contract, as registerOperations runs it. */
async function runOperation(
  deps: Dependencies,
  services: Services,
  operation: ContractOperation,
  request: Request,
  url: URL,
  pathParameters: Record<string, string>,
): Promise<Response> {
  const validators = compileOperationValidators(operation);
  const handler = routeTable[operation.id] as Handler<OperationId>;
  const key = await deps.authenticate(request.headers.get("x-api-key") ?? undefined);
  const params = validators.parameters({
    query: queryOf(url),
    path: pathParameters,
    headers: Object.fromEntries(request.headers),
  });
  const principal = selectTenant(key, params["X-Tenant-Id"] as string | undefined);
  let body: unknown;
  if (validators.body) {
    body = await readJsonBody(request);
    validators.body(body);
  }
  const answer = await handler({ principal, params: params as never, body: body as never }, services);
  const text = answer instanceof JsonText ? answer.text : JSON.stringify(answer);
  const problems = deps.checkResponse?.(operation, operation.successStatus, JSON.parse(text)) ?? [];
  if (problems.length > 0) {
    deps.logger.error(
      { operationId: operation.id, status: operation.successStatus, problems },
      "response breaks the contract",
    );
    throw new HttpProblem("internal", "The server produced a response that breaks its contract; this is a server bug.");
  }
  return new Response(request.method === "HEAD" ? null : text, {
    status: operation.successStatus,
    headers: { ...commonHeaders, "Content-Type": "application/json; charset=utf-8" },
  });
}

/** The query as Koa parses it: a repeated name gives an array. */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** The request's JSON body with the rules of readJsonBody: 415, 413 above 1 MiB, 400 when empty or malformed. */
async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > bodyLimitBytes) throw payloadTooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > bodyLimitBytes) throw payloadTooLarge();
  return parseJsonBody(new TextDecoder().decode(bytes));
}

/** GET /healthz as health.ts answers it (D-81). */
async function health(deps: Dependencies, method: string): Promise<Response> {
  let reachable = true;
  try {
    await deps.store.ping();
  } catch {
    reachable = false;
  }
  const body = reachable ? { status: "ok", database: "ok" } : { status: "unavailable", database: "unreachable" };
  return new Response(method === "HEAD" ? null : JSON.stringify(body), {
    status: reachable ? 200 : 503,
    headers: {
      ...commonHeaders,
      "Content-Type": "application/json; charset=utf-8",
      ...(reachable ? {} : { "Retry-After": "2" }),
    },
  });
}

/** Any failure as a problem: HttpProblems as they are, a full in-memory store as 503 (D-170), anything else a bare 500. */
function asProblem(deps: Dependencies, error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof StoreFull)
    return new HttpProblem(
      "serviceUnavailable",
      `This mock session holds its cap of ${error.maxDeployments} deployments; reset it (POST /__mock/reset) or use another X-Mock-Session.`,
    );
  deps.logger.error({ err: errorSummary(error) }, "unhandled error");
  return new HttpProblem("internal", "The server failed to process the request; try again later.");
}

/** A problem as application/problem+json (D-16). */
export function problemResponse(problem: HttpProblem): Response {
  return new Response(JSON.stringify(problem.toProblem()), {
    status: problem.status,
    headers: { ...commonHeaders, ...problem.headers, "Content-Type": "application/problem+json" },
  });
}
