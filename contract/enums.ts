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

/** Every string an `enum` or a `default` of the contract holds: a value a target writes into any record it likes. */
export const enumeratedWords: ReadonlySet<string> = (() => {
  const words = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === "object") {
      const schema = node as { enum?: unknown; default?: unknown };
      if (Array.isArray(schema.enum)) for (const value of schema.enum) if (typeof value === "string") words.add(value);
      if (typeof schema.default === "string") words.add(schema.default);
      for (const value of Object.values(node)) walk(value);
    }
  };
  walk(document.components);
  return words;
})();
