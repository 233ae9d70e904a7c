/** The one Ajv set-up of the kit: JSON Schema 2020-12 with one format policy for the OpenAPI formats (D-78), holding the whole contract document. */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { SchemaObject } from "openapi3-ts/oas31";
import { document } from "./document.js";

export type { ErrorObject, ValidateFunction };

// ajv-formats is CommonJS: depending on the loader its function is the module or its default export.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

/** The id under which the document is added; `openapi.json#/components/...` resolves in every contract Ajv. */
const documentId = "openapi.json";

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** The canonical textual form only (the contract's `uuid`): no `urn:uuid:` prefix, no braces. */
const canonicalUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a contract Ajv treats the data it validates. */
export interface ContractAjvOptions {
  /** Query, path and header values arrive as strings: coerce them (and single values to arrays). */
  coerceParameters?: boolean;
  /** Fill in schema defaults. */
  useDefaults?: boolean;
  /** Drop fields an object schema does not list (D-28: unknown request fields are ignored, never stored). */
  removeUnknownFields?: boolean;
  /** Report every error, not only the first (default true). */
  allErrors?: boolean;
}

/** Validators over the contract document, each compiled once. */
export interface ContractAjv {
  readonly ajv: Ajv2020;
  /** The validator of the schema at this JSON Pointer of the document (e.g. an operation's body pointer). */
  at(pointer: string): ValidateFunction;
  /** The validator of a named component schema, e.g. `Deployment`. */
  component(name: string): ValidateFunction;
  /** The validator of a schema that is not in the document (dereferenced, or made for one purpose). */
  compile(schema: SchemaObject | object): ValidateFunction;
}

/** A new Ajv over the contract document. Create it once (at start-up) and keep it: compiling is the slow part. */
export function createContractAjv(options: ContractAjvOptions = {}): ContractAjv {
  const ajv = new Ajv2020({
    allErrors: options.allErrors ?? true,
    // strictTypes off: 3.1 nullable fields put `maxLength` or `minimum` beside `anyOf: [X, {type: "null"}]`.
    strict: true,
    strictTypes: false,
    coerceTypes: options.coerceParameters ? "array" : false,
    useDefaults: options.useDefaults ?? false,
    removeAdditional: options.removeUnknownFields ?? false,
  });
  addFormats(ajv);
  ajv.addFormat("uuid", canonicalUuid);
  ajv.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && n >= int32.min && n <= int32.max,
  });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  // OpenAPI keywords that are annotations only, and the document's top-level fields, which Ajv
  // meets as keywords of the root schema when it resolves a pointer into the document.
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  ajv.addVocabulary([
    "openapi",
    "info",
    "servers",
    "paths",
    "components",
    "security",
    "tags",
    "webhooks",
    "jsonSchemaDialect",
  ]);
  ajv.addSchema(options.removeUnknownFields ? closeComponentSchemas(document) : document, documentId);

  const byPointer = new Map<string, ValidateFunction>();
  const at = (pointer: string): ValidateFunction => {
    let validate = byPointer.get(pointer);
    if (!validate) {
      const fragment = pointer
        .split("/")
        .map((segment) => encodeURIComponent(segment).replaceAll("%7E", "~"))
        .join("/");
      validate = ajv.compile({ $ref: `${documentId}#${fragment}` });
      byPointer.set(pointer, validate);
    }
    return validate;
  };
  const bySchema = new WeakMap<object, ValidateFunction>();
  return {
    ajv,
    at,
    component: (name) => at(`/components/schemas/${name}`),
    compile(schema) {
      let validate = bySchema.get(schema);
      if (!validate) {
        validate = ajv.compile(schema);
        bySchema.set(schema, validate);
      }
      return validate;
    },
  };
}

/**
 * A copy of the document in which every component object schema that lists its `properties` and
 * says nothing about other fields gets `additionalProperties: false`, so that `removeAdditional` drops them.
 */
function closeComponentSchemas(contract: typeof document): typeof document {
  return {
    ...contract,
    components: { ...contract.components, schemas: closeObjectSchemas(contract.components?.schemas) as never },
  };
}

function closeObjectSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjectSchemas);
  if (node === null || typeof node !== "object") return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = closeObjectSchemas(value);
  if (
    typeof copy.properties === "object" &&
    copy.additionalProperties === undefined &&
    copy.unevaluatedProperties === undefined
  ) {
    copy.additionalProperties = false;
  }
  return copy;
}
