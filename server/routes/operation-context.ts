/** The steps every operation takes in order (profile choices 3 and 4): authenticate (401), validate parameters (422), select the tenant (403), read and validate the body (415, 413, 400, 422). */
import type { Context } from "koa";
import type { Logger } from "pino";
import { authenticate, selectTenant, type Principal } from "../auth/authenticate.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { readJsonBody } from "../validation/json-body.js";

export interface OperationContext<Body> {
  principal: Principal;
  params: Record<string, unknown>;
  body: Body;
}

/** Runs the common steps of an operation and returns what its handler needs. */
export async function prepareOperation<Body = undefined>(
  ctx: Context,
  deps: Dependencies,
  operationId: string,
): Promise<OperationContext<Body>> {
  ctx.state.operationId = operationId;
  const validators = deps.requestValidators.get(operationId);
  if (!validators) throw new Error(`no validators for ${operationId}`);
  const key = await authenticate(deps.store, ctx.headers["x-api-key"]);
  const params = validators.parameters({
    query: ctx.query as Record<string, string | string[] | undefined>,
    path: (ctx as unknown as { params?: Record<string, string> }).params ?? {},
    headers: ctx.headers,
  });
  const principal = selectTenant(key, params["X-Tenant-Id"] as string | undefined);
  (ctx.state.log as Logger | undefined)?.setBindings?.({ organizationId: principal.organizationId, tenantId: principal.tenantId });
  let body: unknown = undefined;
  if (validators.hasBody) {
    body = await readJsonBody(ctx);
    validators.body(body);
  }
  return { principal, params, body: body as Body };
}

/** Sends a JSON success response, checked against the contract when response validation is on. */
export function respond(ctx: Context, deps: Dependencies, status: number, body: unknown): void {
  if (deps.checkResponse) {
    const problems = deps.checkResponse(String(ctx.state.operationId), status, "application/json", body);
    if (problems.length > 0) {
      // A response that breaks the contract is a server bug: never send it, say so in the log.
      (ctx.state.log as Logger | undefined ?? deps.logger).error({ operationId: ctx.state.operationId, status, problems }, "response breaks the contract");
      throw new HttpProblem("internal", "The server produced a response that breaks its contract; this is a server bug.");
    }
  }
  ctx.status = status;
  ctx.type = "application/json";
  ctx.body = JSON.stringify(body);
}
