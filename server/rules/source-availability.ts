/** Source availability by hosting kind (interface spec: create rules 2 and 3; D-46, MUST): a source unavailable here is 400 [D-46]. */
import type { DeploymentSource } from "../../contract/schemas.js";
import type { Hosting } from "../config.js";
import type { RuleViolation } from "./source-rules.js";

/** Where each source can be deployed. */
export const sourceAvailability: Record<DeploymentSource, Hosting> = {
  codehost: "cloud",
  internal_container: "cloud",
  internal_source: "cloud",
  internal_template: "cloud",
  external_container: "self_hosted",
};

const hostingWords: Record<Hosting, string> = { cloud: "cloud-hosted", self_hosted: "self-hosted" };

/** The violation when the source is not available on this server's hosting kind. */
export function checkSourceAvailability(source: DeploymentSource, hosting: Hosting): RuleViolation | undefined {
  const availableOn = sourceAvailability[source];
  if (availableOn === hosting) return undefined;
  return {
    field: "source",
    pointer: "/source",
    detail: `is available only for ${hostingWords[availableOn]} deployments; this server is ${hostingWords[hosting]}`,
  };
}
