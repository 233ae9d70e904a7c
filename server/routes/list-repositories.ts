/** Shared handler of operations 3 and 4: the repositories of one integration of the caller's tenant, by owner then name; 404 otherwise (profile choices 2, 3, 6). */
import type { Context } from "koa";
import type { IntegrationKind } from "../codehost/port.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { presentRepository } from "../presenters/codehost-repository.js";
import { sortRepositories } from "../rules/ordering.js";
import { prepareOperation, respond } from "./operation-context.js";

export async function listRepositoriesOfKind(ctx: Context, deps: Dependencies, operationId: string, kind: IntegrationKind): Promise<void> {
  const { principal, params } = await prepareOperation(ctx, deps, operationId);
  const integrationId = String(params.integration_id).toLowerCase();
  const integration = await deps.codehost.findIntegration(principal.tenantId, integrationId);
  if (!integration) throw new HttpProblem("notFound", `No code-host integration ${integrationId} in this tenant.`);
  if (integration.kind !== kind) {
    const path = kind === "plain" ? "/v1/integrations/forge/codehost/{integration_id}/repos" : "/v1/integrations/codehost/{integration_id}/repos";
    throw new HttpProblem("notFound", `Integration ${integrationId} is a ${integration.kind} integration; list its repositories with ${path}.`);
  }
  respond(ctx, deps, 200, sortRepositories(integration.repositories).map((r) => presentRepository(integration.id, r)));
}
