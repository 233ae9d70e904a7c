/** Source availability by hosting kind (interface spec: create rules 2 and 3; D-46, MUST): a source unavailable here is 400 [D-46]. */
import type { DeploymentSource } from "../../contract/schemas.js";
import { sourceAvailability } from "../../contract/source-rules.js";
import type { Hosting } from "../config.js";
import type { RuleViolation } from "./source-rules.js";

const hostingWords: Record<Hosting, string> = { cloud: "cloud-hosted", self_hosted: "self-hosted" };

/** The violation when the source is not available on this server's hosting kind (the table of contract/source-rules.ts). */
export function checkSourceAvailability(source: DeploymentSource, hosting: Hosting): RuleViolation | undefined {
  const availableOn = sourceAvailability[source];
  if (availableOn === hosting) return undefined;
  return {
    field: "source",
    pointer: "/source",
    detail: `is available only for ${hostingWords[availableOn]} deployments; this server is ${hostingWords[hosting]}`,
  };
}
