/** Operation 4, listManagedCodehostRepositories: GET /v1/integrations/forge/codehost/{integration_id}/repos → 200 (managed integrations, profile choice 2). */
import type Router from "@koa/router";
import type { Dependencies } from "../dependencies.js";
import { listRepositoriesOfKind } from "./list-repositories.js";

export function registerListManagedCodehostRepositories(router: Router, deps: Dependencies): void {
  router.get("/v1/integrations/forge/codehost/:integration_id/repos", (ctx) =>
    listRepositoriesOfKind(ctx, deps, "listManagedCodehostRepositories", "managed"),
  );
}
