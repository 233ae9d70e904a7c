/** Operation 2, listOAuthProviders: GET /v2/auth/providers → 200, the organization's providers oldest first (D-06, D-08, D-15). */
import type { Handler } from "./route-table.js";

export const listOAuthProviders: Handler<"listOAuthProviders"> = ({ principal }, services) =>
  services.oauthProviders.list(principal);
