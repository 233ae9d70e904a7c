/** Operation 1, createOAuthProvider: POST /v2/auth/providers → 200 (profile choices 1, 9, 13, 14) [D-54, D-58 to D-61]. */
import { randomUUID } from "node:crypto";
import type Router from "@koa/router";
import type { OAuthProviderCreate } from "../../generated/client.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { presentOAuthProvider } from "../presenters/oauth-provider.js";
import { checkOAuthUrl } from "../rules/oauth-urls.js";
import { UniqueViolation } from "../storage/store.js";
import { prepareOperation, respond } from "./operation-context.js";

export function registerCreateOAuthProvider(router: Router, deps: Dependencies): void {
  router.post("/v2/auth/providers", async (ctx) => {
    const { principal, body } = await prepareOperation<OAuthProviderCreate>(ctx, deps, "createOAuthProvider");
    const urlErrors = (["auth_url", "token_url"] as const).flatMap((field) => {
      const detail = checkOAuthUrl(body[field]);
      return detail ? [{ pointer: `/${field}`, detail }] : [];
    });
    if (urlErrors.length > 0) {
      throw new HttpProblem("validation", `The request body breaks the schema in ${urlErrors.length === 1 ? "1 place" : `${urlErrors.length} places`}; see errors.`, urlErrors);
    }
    const nowUs = deps.nowUs();
    const record = {
      id: randomUUID(),
      organizationId: principal.organizationId,
      providerId: body.provider_id,
      name: body.name,
      clientId: body.client_id,
      authUrl: body.auth_url,
      tokenUrl: body.token_url,
      sealedClientSecret: body.client_secret == null ? null : deps.secretBox.encrypt(body.client_secret),
      usesPkce: body.uses_pkce ?? false,
      codeChallengeMethod: body.code_challenge_method ?? "S256",
      providerType: body.provider_type ?? null,
      // Response-only fields: set by dynamic client registration, never by this operation.
      mcpServerUrl: null,
      tokenEndpointAuthMethod: body.token_endpoint_auth_method ?? "client_secret_post",
      isDynamicClient: false,
      createdUs: nowUs,
      updatedUs: nowUs,
    };
    try {
      await deps.store.insertOAuthProvider(record);
    } catch (error) {
      if (error instanceof UniqueViolation) {
        throw new HttpProblem("conflict", `An OAuth provider with provider_id '${body.provider_id}' already exists in this organization.`);
      }
      throw error;
    }
    respond(ctx, deps, 200, presentOAuthProvider(record));
  });
}
