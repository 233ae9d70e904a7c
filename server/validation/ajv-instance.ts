/** Ajv 2020-12 instances for the OpenAPI 3.1 schemas, with the OpenAPI formats int32, int64, double and float registered. */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Options } from "ajv";
import addFormatsModule from "ajv-formats";
import type { OpenApiDocument } from "./openapi-document.js";

/** `$id` under which the document's component schemas are registered; `#/components/...` refs resolve against it. */
export const documentId = "https://deployment-service.invalid/openapi.json";

type AddFormats = (ajv: Ajv2020, options?: { mode: "fast" | "full" }) => Ajv2020;
// ajv-formats is CommonJS; depending on the loader its function is the module or its default export.
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/** The canonical textual form only (the contract's `uuid`): no `urn:uuid:` prefix, no braces. */
const canonicalUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A new Ajv holding the given component schemas. formatMode "fast" checks formats with simpler
 * regular expressions (used for the server's own responses, where speed matters more).
 */
export function createAjv(schemas: Record<string, unknown>, options: Options, formatMode: "fast" | "full" = "full"): Ajv2020 {
  // strict: false lets OpenAPI-only keywords (example, discriminator, ...) pass without a vocabulary.
  const ajv = new Ajv2020({ strict: false, allErrors: true, ...options });
  addFormats(ajv, { mode: formatMode });
  ajv.addFormat("uuid", canonicalUuid);
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= int32.min && n <= int32.max });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addSchema({ $id: documentId, components: { schemas } });
  return ajv;
}

/** A reference to a component schema, usable as a schema in any Ajv created by createAjv. */
export function componentRef(pointer: string): { $ref: string } {
  return { $ref: `${documentId}${pointer}` };
}

/**
 * A deep copy of the component schemas in which every object schema that lists its `properties`
 * and says nothing about others gets `additionalProperties: false`, so that Ajv's
 * `removeAdditional` drops unknown request fields (profile choice 5) instead of storing them.
 */
export function closeObjectSchemas(document: OpenApiDocument): Record<string, unknown> {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (node === null || typeof node !== "object") return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = close(value);
    if (
      typeof copy.properties === "object" &&
      copy.additionalProperties === undefined &&
      copy.unevaluatedProperties === undefined
    ) {
      copy.additionalProperties = false;
    }
    return copy;
  };
  return close(document.components.schemas) as Record<string, unknown>;
}
