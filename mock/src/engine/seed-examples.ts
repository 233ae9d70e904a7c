/** The titled create examples of the contract as a sandbox session's first deployments (D-79), for the SQLite and the in-memory sandbox alike. */
import { operation, requestExamples } from "../../../contract/index.js";
import type { DeploymentCreate } from "../../../contract/schemas.js";
import { compileOperationValidators, HttpProblem, type Principal, type Services } from "../../../server/engine.js";

/** Creates the deployments of the contract's titled create examples, so the first list is not empty; an example the hosting kind refuses (D-46) is left out. */
export async function seedExamples(services: Services, principal: Principal): Promise<void> {
  const create = operation("createDeployment");
  const validators = compileOperationValidators(create);
  for (const example of requestExamples(create)) {
    const body = structuredClone(example.value);
    try {
      // As a request would arrive at the service: validated, defaults applied.
      validators.body?.(body);
      await services.deployments.create(principal, body as DeploymentCreate);
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
    }
  }
}
