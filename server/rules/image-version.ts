/** Image version (D-39 to D-45): the tag of image_uri for container sources, else null; the URI must be a container image reference [D-42]. */
import type { DeploymentSource } from "../../contract/schemas.js";
import { imageSources, imageTag } from "../../contract/source-rules.js";

/** The image version of a new deployment: the explicit tag of its image for a source that carries one (table of contract/source-rules.ts), else null. */
export function imageVersion(source: DeploymentSource, imageUri: string | null | undefined): string | null {
  return imageSources.includes(source) ? imageTag(imageUri) : null;
}
