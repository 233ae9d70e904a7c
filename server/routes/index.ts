/**
 * The handler of every operation of the contract, one entry each: a handler takes the validated request and
 * calls one service. `RouteTable` has a key per operationId, so the compiler fails until a new operation has
 * its entry here (D-210).
 */
import { deploymentQuery } from "../rules/list-filters.js";
import type { RouteTable } from "./route-table.js";

export const routeTable: RouteTable = {
  /** Operation 1: POST /v2/auth/providers → 200 (D-06, D-38, D-54, D-58). */
  createOAuthProvider: ({ principal, body }, services) => services.oauthProviders.create(principal, body),
  /** Operation 2: GET /v2/auth/providers → 200, the organization's providers oldest first (D-06, D-08, D-15). */
  listOAuthProviders: ({ principal }, services) => services.oauthProviders.list(principal),
  /** Operation 3: GET /v1/integrations/codehost/{integration_id}/repos → 200, a plain integration's repositories (D-08, D-15). */
  listCodehostRepositories: ({ principal, params }, services) =>
    services.codehostRepositories.list(principal, params.integration_id, "plain"),
  /** Operation 4: GET /v1/integrations/forge/codehost/{integration_id}/repos → 200, a managed integration's repositories (D-10). */
  listManagedCodehostRepositories: ({ principal, params }, services) =>
    services.codehostRepositories.list(principal, params.integration_id, "managed"),
  /** Operation 5: GET /v2/deployments → 200, newest first, filters combined with AND, offset pagination (D-07 to D-09, D-39 to D-45). */
  listDeployments: ({ principal, params }, services) => services.deployments.list(principal, deploymentQuery(params)),
  /** Operation 6: POST /v2/deployments → 201, per-source rules and availability (400), one transaction, 409 on a taken name (D-06, D-28, D-37, D-46 to D-53). */
  createDeployment: ({ principal, body }, services) => services.deployments.create(principal, body),
};
