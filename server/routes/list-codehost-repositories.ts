/** Operation 3, listCodehostRepositories: GET /v1/integrations/codehost/{integration_id}/repos → 200 (plain integrations). */
import type Router from "@koa/router";
import type { Dependencies } from "../dependencies.js";
import { listRepositoriesOfKind } from "./list-repositories.js";

export function registerListCodehostRepositories(router: Router, deps: Dependencies): void {
  router.get("/v1/integrations/codehost/:integration_id/repos", (ctx) => listRepositoriesOfKind(ctx, deps, "listCodehostRepositories", "plain"));
}
