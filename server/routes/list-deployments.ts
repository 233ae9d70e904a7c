/** Operation 5, listDeployments: GET /v2/deployments → 200, newest first, filters combined with AND, offset pagination (D-07 to D-09, D-39 to D-45). */
import { deploymentQuery } from "../rules/list-filters.js";
import type { Handler } from "./route-table.js";

export const listDeployments: Handler<"listDeployments"> = ({ principal, params }, services) =>
  services.deployments.list(principal, deploymentQuery(params));
