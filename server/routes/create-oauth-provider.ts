/** Operation 1, createOAuthProvider: POST /v2/auth/providers → 200 (D-06, D-38, D-54, D-58). */
import type { Handler } from "./route-table.js";

export const createOAuthProvider: Handler<"createOAuthProvider"> = ({ principal, body }, services) =>
  services.oauthProviders.create(principal, body);
