/** The service layer between the route handlers and the store: routes call services, services apply the rules and use the store. */
import type { Dependencies } from "../dependencies.js";
import { CodehostRepositoryService } from "./codehost-repositories.js";
import { DeploymentService } from "./deployments.js";
import { OAuthProviderService } from "./oauth-providers.js";

export interface Services {
  oauthProviders: OAuthProviderService;
  codehostRepositories: CodehostRepositoryService;
  deployments: DeploymentService;
}

export function createServices(deps: Dependencies): Services {
  return {
    oauthProviders: new OAuthProviderService(deps),
    codehostRepositories: new CodehostRepositoryService(deps),
    deployments: new DeploymentService(deps),
  };
}
