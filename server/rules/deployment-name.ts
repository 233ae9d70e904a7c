/** Deployment names (D-37, D-38): the pattern and length come from the schema (422); uniqueness per tenant is a 409 shared with the tracing project [D-37]. */
import { HttpProblem } from "../errors/http-problem.js";

/** The 409 of a name already used in the tenant, by a deployment or by its tracing project of the same name. */
export function duplicateDeploymentName(name: string): HttpProblem {
  return new HttpProblem("conflict", `A deployment named '${name}' already exists in this tenant.`);
}
