/** Operation 6, createDeployment: POST /v2/deployments → 201, per-source rules and availability (400), one transaction, 409 on a taken name (D-06, D-28, D-37, D-46 to D-53). */
import type { Handler } from "./route-table.js";

export const createDeployment: Handler<"createDeployment"> = ({ principal, body }, services) =>
  services.deployments.create(principal, body);
