/** Operation 4, listManagedCodehostRepositories: GET /v1/integrations/forge/codehost/{integration_id}/repos → 200, repositories of a managed integration (D-10). */
import type { Handler } from "./route-table.js";

export const listManagedCodehostRepositories: Handler<"listManagedCodehostRepositories"> = (
  { principal, params },
  services,
) => services.codehostRepositories.list(principal, params.integration_id, "managed");
