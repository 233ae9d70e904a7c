/** The handler of every operation of the contract, one file each. */
import { createDeployment } from "./create-deployment.js";
import { createOAuthProvider } from "./create-oauth-provider.js";
import { listCodehostRepositories } from "./list-codehost-repositories.js";
import { listDeployments } from "./list-deployments.js";
import { listManagedCodehostRepositories } from "./list-managed-codehost-repositories.js";
import { listOAuthProviders } from "./list-oauth-providers.js";
import type { RouteTable } from "./route-table.js";

export const routeTable: RouteTable = {
  createOAuthProvider,
  listOAuthProviders,
  listCodehostRepositories,
  listManagedCodehostRepositories,
  listDeployments,
  createDeployment,
};
