/**
 * The request pipeline, written once (D-270): every step of a request over the pipeline's own request and
 * answer shapes (exchange.ts), for the two adapters to run, the Koa app of the reference server (server/app.ts)
 * and the fetch handler of the mocks (fetch-adapter.ts). A request goes: admission (400 without an HTTP version,
 * without Host, with two or with an invalid one; 414), routing (health, an operation, else 404 or 405), authentication (401),
 * parameters (422, unknown names included), tenant (403), body (415, 413, 400, 422), the handler of the route
 * table, the response check (D-13 to D-16; a streamed page's slice by slice, D-410), problem details and the common headers on every answer.
 */
import { type ContractOperation, matchPath, type OperationId, operationList } from "../../contract/index.js";
import { selectTenant } from "../auth/authenticate.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { maxTargetBytes } from "../errors/target-limit.js";
import { JsonStream } from "../presenters/json-stream.js";
import { JsonText } from "../presenters/json-text.js";
import { routeTable } from "../routes/index.js";
import type { Handler } from "../routes/route-table.js";
import { createServices } from "../services/index.js";
import { compileOperationValidators } from "../validation/operation-validators.js";
import { commonHeaders } from "./common-headers.js";
import type { PipelineAnswer, PipelineRequest } from "./exchange.js";
import { health, healthRoute } from "./health.js";
import { isHostValue } from "./host-fields.js";
import { readJsonRequestBody } from "./json-request-body.js";
import { failureAnswer, type ProblemOf, problemAnswer } from "./problem-answer.js";
import { unmatched } from "./unmatched.js";

/** The steps an adapter runs; none throws, every failure is answered as a problem. */
interface Pipeline {
  /** A request from start to end: admission, routing, then the operation, the health check, 404 or 405. */
  handle(request: PipelineRequest): Promise<PipelineAnswer>;
  /** The 400 (no HTTP version, HTTP/1.1 without Host, two Host lines) or 414 a request gets before routing, or undefined when admitted. */
  admit(request: PipelineRequest): PipelineAnswer | undefined;
  /** One operation of a routed request, its path parameters decoded. */
  operation(
    operation: ContractOperation,
    pathParameters: Record<string, string>,
    request: PipelineRequest,
  ): Promise<PipelineAnswer>;
  /** GET /healthz. */
  health(): Promise<PipelineAnswer>;
  /** A request no route took: 404, or 405 with Allow (204 to OPTIONS). */
  unmatched(request: PipelineRequest): PipelineAnswer;
}

/** Options of a pipeline. */
export interface PipelineOptions {
  /** Problems for the errors of a mock's own store (a full in-memory store). */
  problemOf?: ProblemOf;
}

/** The JSON success answer's content type. */
const jsonHeaders = { ...commonHeaders, "Content-Type": "application/json; charset=utf-8" };
const extraRoutes: Record<string, readonly string[]> = { [healthRoute.path]: healthRoute.methods };

/** The pipeline over one set of dependencies: its services are made once. */
export function createPipeline(deps: Dependencies, options: PipelineOptions = {}): Pipeline {
  const services = createServices(deps);
  // Compiled once per process (a WeakMap by operation): here at start rather than on the first request.
  for (const contractOperation of operationList) compileOperationValidators(contractOperation);

  const runOperation = async (
    operation: ContractOperation,
    pathParameters: Record<string, string>,
    request: PipelineRequest,
  ): Promise<PipelineAnswer> => {
    const validators = compileOperationValidators(operation);
    const handler = routeTable[operation.id] as Handler<OperationId>;
    const key = await deps.authenticate(request.headers["x-api-key"]);
    const params = validators.parameters({
      query: queryOf(request.search),
      path: pathParameters,
      headers: request.headers,
    });
    const principal = selectTenant(key, params["X-Tenant-Id"] as string | undefined);
    request.identified?.({ organizationId: principal.organizationId, tenantId: principal.tenantId });
    let body: unknown;
    if (validators.body) {
      body = await readJsonRequestBody(request);
      validators.body(body);
    }
    const answer = await handler({ principal, params: params as never, body: body as never }, services);
    const breaches = (checked: unknown): void => {
      const problems = deps.checkResponse?.(operation, operation.successStatus, checked) ?? [];
      if (problems.length === 0) return;
      // A response that breaks the contract is a server bug: never send it, say so in the log.
      request
        .log()
        .error(
          { operationId: operation.id, status: operation.successStatus, problems },
          "response breaks the contract",
        );
      throw new HttpProblem(
        "internal",
        "The server produced a response that breaks its contract; this is a server bug.",
      );
    };
    // A heavy page goes out in parts (D-350), checked a slice at a time before each is sent (D-410): never read
    // whole, so the response check holds no more of it than the send does.
    if (answer instanceof JsonStream) {
      const stream = deps.checkResponse ? answer.checkedRuns(breaches) : answer;
      return {
        status: operation.successStatus,
        headers: jsonHeaders,
        body: { parts: stream.parts(), close: stream.close },
      };
    }
    const text = answer instanceof JsonText ? answer.text : JSON.stringify(answer);
    if (deps.checkResponse) breaches(answer instanceof JsonText ? JSON.parse(text) : answer);
    return { status: operation.successStatus, headers: jsonHeaders, body: text };
  };

  const admit = (request: PipelineRequest): PipelineAnswer | undefined => {
    // Node's parser takes a request line without a version as HTTP/0.9, which has no headers and so no key:
    // refused before authentication, not answered 401 (D-310).
    if (request.httpVersion !== undefined && request.httpVersion !== "1.1" && request.httpVersion !== "1.0")
      return problemAnswer(new HttpProblem("malformedRequest", "The request line must end with HTTP/1.1 or HTTP/1.0."));
    // RFC 9112 §3.2: an HTTP/1.1 request without Host, or any request with more than one Host line, is a 400;
    // Node's own check (requireHostHeader) is off so that this answer is a problem detail like every other one
    // [D-76, D-310]. Node keeps only the first of two Host lines, so the adapter counts the lines as sent.
    if (request.httpVersion === "1.1" && request.hostFields === 0)
      return problemAnswer(new HttpProblem("malformedRequest", "An HTTP/1.1 request must carry a Host header."));
    if (request.hostFields !== undefined && request.hostFields > 1)
      return problemAnswer(new HttpProblem("malformedRequest", "A request must carry one Host header, not several."));
    // X-Api-Key is no list: two lines reach the handler joined ("a, b"), which no key is, and which a sandbox that
    // takes any key would serve as a key of its own; refused before authentication on every adapter (D-397).
    if (request.keyFields !== undefined && request.keyFields > 1)
      return problemAnswer(new HttpProblem("malformedRequest", "Send one X-Api-Key header line, not several."));
    // RFC 9110 §7.2: a Host field with an invalid value (a list `a, b` among them) is a 400 too (D-412).
    if (!isHostValue(request.headers.host))
      return problemAnswer(
        new HttpProblem("malformedRequest", "The Host header must name one host, with its port or not."),
      );
    // RFC 9110 §15.5.15: a target longer than the server takes is 414 (D-115); a longer one that overflows
    // Node's 16 KiB head is answered 414 by answerClientErrors.
    if (request.targetBytes > maxTargetBytes)
      return problemAnswer(new HttpProblem("uriTooLong", `The request target is longer than ${maxTargetBytes} bytes.`));
    return undefined;
  };
  const operation = async (
    contractOperation: ContractOperation,
    pathParameters: Record<string, string>,
    request: PipelineRequest,
  ): Promise<PipelineAnswer> => {
    try {
      return await runOperation(contractOperation, pathParameters, request);
    } catch (error) {
      return failureAnswer(error, () => request.log(), options.problemOf);
    }
  };
  const unmatchedStep = (request: PipelineRequest): PipelineAnswer => {
    try {
      return unmatched(request, extraRoutes);
    } catch (error) {
      return failureAnswer(error, () => request.log(), options.problemOf);
    }
  };
  const healthStep = () => health(deps.store);

  return {
    admit,
    operation,
    health: healthStep,
    unmatched: unmatchedStep,
    async handle(request) {
      const refused = admit(request);
      if (refused) return refused;
      if (request.path === healthRoute.path && (request.method === "GET" || request.method === "HEAD"))
        return healthStep();
      const match = matchPath(request.method, request.path);
      if (match.kind === "operation") return operation(match.operation, match.pathParameters, request);
      return unmatchedStep(request);
    },
  };
}

/**
 * The query as the validators read it: a repeated name gives an array, `+` is a space, invalid escapes stay as sent.
 * A record without a prototype, so `__proto__`, `constructor` or `hasOwnProperty` is a name like any other, refused
 * when undeclared (D-310, D-412), not a setter or an inherited value.
 */
function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  if (search === "") return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const known = query[name];
    query[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return query;
}
