/** Operation 3, listCodehostRepositories: GET /v1/integrations/codehost/{integration_id}/repos → 200, repositories of a plain integration (D-08, D-15). */
import type { Handler } from "./route-table.js";

export const listCodehostRepositories: Handler<"listCodehostRepositories"> = ({ principal, params }, services) =>
  services.codehostRepositories.list(principal, params.integration_id, "plain");
