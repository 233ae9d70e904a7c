/** Ajv for the OpenAPI 3.1 contract: JSON Schema 2020-12 plus the OpenAPI formats and keywords (decision D-62). */
import Ajv2020Module from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// Both packages are CommonJS with a default export; under NodeNext the class sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
export type OpenApiAjv = InstanceType<typeof Ajv2020>;

/** The id under which the whole OpenAPI document is added to Ajv. */
export const documentId = "openapi.json";

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * An Ajv2020 instance holding the whole document, so that `openapi.json#/components/schemas/X`
 * (and the document's own `#/components/...` refs, through `schemaValidator`) resolve.
 */
export function createOpenApiAjv(document: object): OpenApiAjv {
  // strictTypes off: 3.1 nullable fields put `maxLength` or `minimum` beside `anyOf: [X, {type: "null"}]`.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= int32.min && n <= int32.max });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  // OpenAPI keywords that are annotations only, and the top-level fields of the document, which
  // Ajv compiles as the root schema when it resolves a ref into it.
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  ajv.addVocabulary(["openapi", "info", "servers", "paths", "components", "security", "tags", "webhooks", "jsonSchemaDialect"]);
  ajv.addSchema(document, documentId);
  return ajv;
}

const compiled = new WeakMap<OpenApiAjv, WeakMap<object, ValidateFunction>>();

/**
 * A validator for a schema found anywhere in the document (refs are the document's own `#/...`).
 * Compiled once per schema object, so calling it for every response does not grow Ajv's cache.
 */
export function schemaValidator(ajv: OpenApiAjv, schema: object): ValidateFunction {
  let bySchema = compiled.get(ajv);
  if (!bySchema) compiled.set(ajv, (bySchema = new WeakMap()));
  let validate = bySchema.get(schema);
  if (!validate) bySchema.set(schema, (validate = ajv.compile(rebase(schema) as object)));
  return validate;
}

/** Points `#/...` refs at the document added under `documentId`. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string" && inner.startsWith("#") ? `${documentId}${inner}` : rebase(inner),
    ]),
  );
}
