/** The one Ajv set-up of the kit: JSON Schema 2020-12 with one format policy for the OpenAPI formats (D-78), holding the whole contract document. */
import { _, Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import { document } from "./document.js";
import { contractFormats } from "./formats.js";

export type { ErrorObject, ValidateFunction };

/** The id under which the document is added; `openapi.json#/components/...` resolves in every contract Ajv. */
const documentId = "openapi.json";

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
  /** The document to validate against (default: generated/openapi.json); `npm run generate` passes the fresh one. */
  document?: OpenAPIObject;
  /** Keep each validator's source for Ajv standalone code (D-88); formats are then referred to as `contractFormats`. */
  standaloneCode?: boolean;
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
    ...(options.standaloneCode ? { code: { source: true, formats: _`contractFormats` } } : {}),
  });
  for (const [name, format] of Object.entries(contractFormats)) ajv.addFormat(name, format);
  // OpenAPI keywords that are annotations only (and `x-decision`, the decision that adds a constraint, D-220; `x-secret`,
  // a field whose value no output may show, D-390), and the
  // document's top-level fields, which Ajv meets as keywords of the root schema when it resolves a pointer into the document.
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs", "x-decision", "x-secret"]);
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
  const contract = options.document ?? document;
  ajv.addSchema(options.removeUnknownFields ? closeComponentSchemas(contract) : contract, documentId);

  const byPointer = new Map<string, ValidateFunction>();
  const at = (pointer: string): ValidateFunction => {
    let validate = byPointer.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: documentRef(pointer) });
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

/** The `$ref` of the schema at this JSON Pointer of the document, as every contract Ajv resolves it. */
export function documentRef(pointer: string): string {
  const fragment = pointer
    .split("/")
    .map((segment) => encodeURIComponent(segment).replaceAll("%7E", "~"))
    .join("/");
  return `${documentId}#${fragment}`;
}

/**
 * A copy of the document in which every component object schema that lists its `properties` and
 * says nothing about other fields gets `additionalProperties: false`, so that `removeAdditional` drops them.
 */
function closeComponentSchemas(contract: OpenAPIObject): OpenAPIObject {
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
