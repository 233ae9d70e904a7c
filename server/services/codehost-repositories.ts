/** Repositories of the caller's tenant's code-host integrations (D-10, D-15): operation 3 for plain integrations, operation 4 for managed ones; 404 otherwise. */
import { operation } from "../../contract/index.js";
import type { CodehostRepository } from "../../contract/schemas.js";
import type { Principal } from "../auth/authenticate.js";
import type { IntegrationKind } from "../codehost/port.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { presentRepository } from "../presenters/codehost-repository.js";
import { sortRepositories } from "../rules/ordering.js";

/** The operation that lists the repositories of each kind of integration, for the 404 that points at the other one. */
const listingOf: Record<IntegrationKind, string> = {
  plain: operation("listCodehostRepositories").path,
  managed: operation("listManagedCodehostRepositories").path,
};

export class CodehostRepositoryService {
  constructor(private readonly deps: Dependencies) {}

  /** The repositories of one integration of the caller's tenant, by owner then name (D-08). */
  async list(principal: Principal, integrationId: string, kind: IntegrationKind): Promise<CodehostRepository[]> {
    const id = integrationId.toLowerCase();
    const integration = await this.deps.codehost.findIntegration(principal.tenantId, id);
    if (!integration) throw new HttpProblem("notFound", `No code-host integration ${id} in this tenant.`);
    if (integration.kind !== kind) {
      throw new HttpProblem(
        "notFound",
        `Integration ${id} is a ${integration.kind} integration; list its repositories with ${listingOf[integration.kind]}.`,
      );
    }
    return sortRepositories(integration.repositories).map((repository) =>
      presentRepository(integration.id, repository),
    );
  }
}
