/** Values of the create body the schema cannot judge (D-47, D-31): URLs parsed with a real URL parser, container image references. */
import type { DeploymentCreate } from "../../contract/schemas.js";
import { isImageReference } from "../../contract/source-rules.js";
import type { RuleViolation } from "./source-rules.js";

/** Each field whose value is not what it claims to be. */
export function checkSourceFieldValues(body: DeploymentCreate): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const field of ["repo_url", "custom_url"] as const) {
    const value = body.source_config[field];
    if (typeof value === "string" && value !== "" && !isHttpUrl(value)) {
      violations.push({
        field: `source_config.${field}`,
        pointer: `/source_config/${field}`,
        detail: "must be an absolute http or https URL",
      });
    }
  }
  const image = body.source_revision_config.image_uri;
  if (typeof image === "string" && image !== "" && !isImageReference(image)) {
    violations.push({
      field: "source_revision_config.image_uri",
      pointer: "/source_revision_config/image_uri",
      detail: "must be a container image reference (registry/name:tag)",
    });
  }
  return violations;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
