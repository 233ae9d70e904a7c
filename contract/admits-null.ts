/** Whether a property schema of the contract admits null: an `anyOf` with a null branch, or a `type` naming null (D-130). */
import type { SchemaObject } from "openapi3-ts/oas31";

export function admitsNull(property: SchemaObject): boolean {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  return types.includes("null") || (property.anyOf ?? []).some((branch) => admitsNull(branch as SchemaObject));
}
