/** The filters and page of the deployment list (D-39 to D-45): what each validated parameter asks of the store. */
import type { RequestParameters } from "../../contract/index.js";
import type { DeploymentQuery } from "../domain/records.js";

/** Interprets the validated parameters. */
export function deploymentQuery(params: RequestParameters<"listDeployments">): DeploymentQuery {
  // The validator applied the contract's defaults: `limit` and `offset` are always present.
  const query: DeploymentQuery = { limit: params.limit as number, offset: params.offset as number };
  if (typeof params.name_contains === "string") query.nameContains = params.name_contains;
  if (Array.isArray(params.status)) query.statuses = params.status;
  if (Array.isArray(params.deployment_ids)) query.deploymentIds = params.deployment_ids.map((id) => id.toLowerCase());
  if (typeof params.remote_reconciled === "boolean") query.remoteReconciled = params.remote_reconciled;
  if (typeof params.image_version === "string") query.imageVersion = params.image_version;
  // D-41: deployments of this interface carry no tags; a non-empty tag filter matches nothing.
  if (Array.isArray(params.tag_value_ids) && params.tag_value_ids.length > 0) query.matchNothing = true;
  // D-43: every deployment created through this interface is `dev`.
  if (params.deployment_type != null && params.deployment_type !== "dev") query.matchNothing = true;
  return query;
}
