/** What `npm run generate` and `npm run contract:check` print for a field beyond the interface spec's tables: the `exceptions` entry it needs, formatted (D-481). */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { checkInterfaceSpec, fieldExceptionEntry } from "./interface-spec-tables.js";
import { loadInterfaceTables } from "./interface-tables.js";

/** The lines to print for `document`'s fields that the interface spec's tables lack and no exception covers; "" when none. */
export function fieldExceptionAdvice(document: OpenAPIObject): string {
  const { fieldsWithoutException } = checkInterfaceSpec(loadInterfaceTables().sections, document);
  if (fieldsWithoutException.length === 0) return "";
  return [
    `${fieldsWithoutException.length === 1 ? "A field is" : `${fieldsWithoutException.length} fields are`} beyond the interface spec's tables: ${fieldsWithoutException.join(", ")}.`,
    "generator/interface-spec-tables.test.ts fails until each has its decision row in spec/decisions.md (its id for D-NN)",
    "and its entry at the end of `exceptions` in generator/interface-spec-tables.ts; paste as printed:",
    ...fieldsWithoutException.map(fieldExceptionEntry),
    "",
  ].join("\n");
}
