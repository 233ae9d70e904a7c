/** Operation 2, listOAuthProviders: GET /v2/auth/providers → 200, the organization's providers oldest first (profile choices 3, 6). */
import type Router from "@koa/router";
import type { Dependencies } from "../dependencies.js";
import { presentOAuthProvider } from "../presenters/oauth-provider.js";
import { prepareOperation, respond } from "./operation-context.js";

export function registerListOAuthProviders(router: Router, deps: Dependencies): void {
  router.get("/v2/auth/providers", async (ctx) => {
    const { principal } = await prepareOperation(ctx, deps, "listOAuthProviders");
    const providers = await deps.store.listOAuthProviders(principal.organizationId);
    respond(ctx, deps, 200, providers.map(presentOAuthProvider));
  });
}
