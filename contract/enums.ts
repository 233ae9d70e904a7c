/** The enumerations of the contract (generated/openapi.json), read from their component schemas, so no caller writes a value list again. */

import type { components } from "../generated/types.js";
import { document } from "./document.js";

type Schemas = components["schemas"];

/** The values of a component schema's `enum`, in the contract's order; throws when the schema has none. */
function enumOf<Name extends keyof Schemas>(name: Name): readonly Schemas[Name][] {
  const values = (document.components?.schemas?.[name] as { enum?: Schemas[Name][] } | undefined)?.enum;
  if (!values) throw new Error(`generated/openapi.json: components.schemas.${name} has no enum`);
  return values;
}

/** The states of a deployment (interface spec: States and transitions). */
export const deploymentStatuses = enumOf("DeploymentStatus");

/** The values of the deployment list's `deployment_type` filter. */
export const deploymentTypes = enumOf("DeploymentType");
