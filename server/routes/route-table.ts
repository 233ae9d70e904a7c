/** The route table: one typed handler per operation of the contract, registered from the operations table with its validators compiled once (D-78). */
import type Router from "@koa/router";
import type { Context } from "koa";
import {
  type ContractOperation,
  type OperationId,
  operationList,
  type RequestBody,
  type RequestParameters,
  type SuccessBody,
} from "../../contract/index.js";
import { type Principal, selectTenant } from "../auth/authenticate.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { bindRequest, requestLog } from "../logging.js";
import { JsonText } from "../presenters/json-text.js";
import type { Services } from "../services/index.js";
import { readJsonBody } from "../validation/json-body.js";
import { compileOperationValidators } from "../validation/operation-validators.js";
import { SendBuffers } from "./send-buffers.js";

/** What a handler receives: who calls, and the validated, typed request. */
interface OperationRequest<Id extends OperationId> {
  principal: Principal;
  params: RequestParameters<Id>;
  body: RequestBody<Id>;
}

/** A handler answers with its success body (or its JSON text, D-83); the status comes from the operations table, errors are thrown HttpProblems. */
export type Handler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  services: Services,
) => Promise<SuccessBody<Id> | JsonText<SuccessBody<Id>>>;

/** One handler for every operation of the contract: the compiler fails when one is missing. */
export type RouteTable = { [Id in OperationId]: Handler<Id> };

/**
 * Registers every operation of the contract. Each request goes: authenticate (401), validate
 * parameters (422), select the tenant (403), read and validate the body (415, 413, 400, 422),
 * handler, response check (D-13 to D-16).
 */
export function registerOperations(router: Router, table: RouteTable, deps: Dependencies, services: Services): void {
  const sendBuffers = new SendBuffers();
  for (const operation of operationList) {
    const validators = compileOperationValidators(operation);
    const handler = table[operation.id] as Handler<OperationId>;
    router[operation.method](koaPath(operation.path), async (ctx) => {
      ctx.state.operationId = operation.id;
      const key = await deps.authenticate(ctx.headers["x-api-key"]);
      const params = validators.parameters({
        query: ctx.query as Record<string, string | string[] | undefined>,
        path: (ctx as unknown as { params?: Record<string, string> }).params ?? {},
        headers: ctx.headers,
      });
      const principal = selectTenant(key, params["X-Tenant-Id"] as string | undefined);
      bindRequest(ctx, { organizationId: principal.organizationId, tenantId: principal.tenantId });
      let body: unknown;
      if (validators.body) {
        body = await readJsonBody(ctx);
        validators.body(body);
      }
      const answer = await handler({ principal, params: params as never, body: body as never }, services);
      respond(ctx, deps, sendBuffers, operation, answer);
    });
  }
}

/** `/v1/integrations/codehost/{integration_id}/repos` → `/v1/integrations/codehost/:integration_id/repos`. */
function koaPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ":$1");
}

/** Sends the success answer, checked against the contract when response validation is on. */
function respond(
  ctx: Context,
  deps: Dependencies,
  sendBuffers: SendBuffers,
  operation: ContractOperation,
  answer: unknown,
): void {
  const text = answer instanceof JsonText ? answer.text : undefined;
  const checked = deps.checkResponse ? (text === undefined ? answer : JSON.parse(text)) : undefined;
  const problems = deps.checkResponse?.(operation, operation.successStatus, checked) ?? [];
  if (problems.length > 0) {
    // A response that breaks the contract is a server bug: never send it, say so in the log.
    requestLog(ctx, deps.logger).error(
      { operationId: operation.id, status: operation.successStatus, problems },
      "response breaks the contract",
    );
    throw new HttpProblem("internal", "The server produced a response that breaks its contract; this is a server bug.");
  }
  ctx.status = operation.successStatus;
  ctx.type = "application/json";
  ctx.body = sendBuffers.body(text ?? JSON.stringify(answer), ctx.res);
}
