/** Operation 5, listDeployments: GET /v2/deployments → 200, newest first, filters combined with AND, offset pagination (profile choices 6, 7, 8) [D-07, D-39 to D-45]. */
import type Router from "@koa/router";
import type { Dependencies } from "../dependencies.js";
import { presentDeployment } from "../presenters/deployment.js";
import { nextOffset } from "../rules/pagination.js";
import type { DeploymentQuery } from "../storage/records.js";
import { prepareOperation, respond } from "./operation-context.js";

export function registerListDeployments(router: Router, deps: Dependencies): void {
  router.get("/v2/deployments", async (ctx) => {
    const { principal, params } = await prepareOperation(ctx, deps, "listDeployments");
    const query = deploymentQuery(params);
    const records = await deps.store.listDeployments(principal.tenantId, query, deps.nowUs());
    respond(ctx, deps, 200, { resources: records.map(presentDeployment), offset: nextOffset(query.offset, records.length) });
  });
}

/** Interprets the validated parameters (profile choice 8). */
export function deploymentQuery(params: Record<string, unknown>): DeploymentQuery {
  const query: DeploymentQuery = { limit: params.limit as number, offset: params.offset as number };
  if (typeof params.name_contains === "string") query.nameContains = params.name_contains;
  if (Array.isArray(params.status)) query.statuses = params.status as string[];
  if (Array.isArray(params.deployment_ids)) query.deploymentIds = (params.deployment_ids as string[]).map((id) => id.toLowerCase());
  if (typeof params.remote_reconciled === "boolean") query.remoteReconciled = params.remote_reconciled;
  if (typeof params.image_version === "string") query.imageVersion = params.image_version;
  // Deployments of this interface carry no tags; a non-empty tag filter matches nothing.
  if (Array.isArray(params.tag_value_ids) && params.tag_value_ids.length > 0) query.matchNothing = true;
  // Every deployment created through this interface is `dev`.
  if (params.deployment_type !== undefined && params.deployment_type !== "dev") query.matchNothing = true;
  return query;
}
