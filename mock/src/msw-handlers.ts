/**
 * In-process mocks for client unit tests: MSW request handlers for every operation of the contract
 * (openapi-msw on msw 2). They serve the titled examples (D-71), honour `Prefer: code=` / `example=`,
 * and answer invalid requests with the same problem details as the reference server (its validators).
 */
import type { HttpHandler } from "msw";
import { HttpResponse } from "msw";
import { createOpenApiHttp } from "openapi-msw";
import { type ContractOperation, operationList, preferredExample, responseExamples } from "../../contract/index.js";
import type { paths } from "../../generated/types.js";
import { compileOperationValidators, HttpProblem, isJsonContentType } from "../../server/engine.js";
import { type StatefulHandlerOptions, type StatefulHandlers, statefulHandlers } from "./stateful-msw-handlers.js";

/** Where the handlers answer, e.g. `http://api.test`. */
export interface ContractHandlerOptions {
  baseUrl: string;
  stateful?: false;
}

/**
 * One handler per operation of the contract; with `stateful: true`, the sandbox's state and rules
 * in-process instead (D-172), with `reset()` on the returned list.
 */
export function contractHandlers(options: ContractHandlerOptions): HttpHandler[];
export function contractHandlers(options: StatefulHandlerOptions & { stateful: true }): StatefulHandlers;
export function contractHandlers(
  options: ContractHandlerOptions | (StatefulHandlerOptions & { stateful: true }),
): HttpHandler[] | StatefulHandlers {
  if (options.stateful) return statefulHandlers(options);
  const http = createOpenApiHttp<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, "") });
  return operationList.map((operation) => {
    const register = http[operation.method] as (
      path: string,
      resolver: (info: { request: Request; params: Record<string, string> }) => Promise<Response>,
    ) => HttpHandler;
    return register(operation.path, ({ request, params }) => answer(operation, request, params));
  });
}

async function answer(
  operation: ContractOperation,
  request: Request,
  pathParameters: Record<string, string>,
): Promise<Response> {
  const preferred = preferredExample(operation, request.headers.get("prefer") ?? undefined);
  if (preferred instanceof Error)
    return problem(new HttpProblem("notFound", `${preferred.message}; see the titled examples of the contract.`));
  if (preferred) return json(preferred.status, preferred.mediaType, preferred.value);
  try {
    if (!request.headers.get("x-api-key")?.trim())
      throw new HttpProblem("unauthenticated", "Send a valid API key in the X-Api-Key header.");
    const validators = compileOperationValidators(operation);
    const url = new URL(request.url);
    const query: Record<string, string | string[]> = {};
    for (const name of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(name);
      query[name] = values.length === 1 ? values[0]! : values;
    }
    validators.parameters({ query, path: pathParameters, headers: Object.fromEntries(request.headers) });
    if (validators.body) {
      const contentType = request.headers.get("content-type") ?? "";
      if (!isJsonContentType(contentType))
        throw new HttpProblem("unsupportedMediaType", "Send the request body as application/json.");
      let body: unknown;
      try {
        body = JSON.parse(await request.text());
      } catch {
        throw new HttpProblem("malformedJson", "The request body is not valid JSON.");
      }
      validators.body(body);
    }
  } catch (error) {
    if (error instanceof HttpProblem) return problem(error);
    throw error;
  }
  const success = responseExamples(operation).find((example) => example.status === operation.successStatus);
  if (!success) throw new Error(`${operation.id} has no titled success example (D-71)`);
  return json(success.status, success.mediaType, success.value);
}

function json(status: number, mediaType: string, value: unknown): Response {
  return new HttpResponse(JSON.stringify(value), { status, headers: { "Content-Type": mediaType } });
}

function problem(error: HttpProblem): Response {
  return new HttpResponse(JSON.stringify(error.toProblem()), {
    status: error.status,
    headers: { "Content-Type": "application/problem+json", ...error.headers },
  });
}
