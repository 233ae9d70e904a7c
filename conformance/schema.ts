/** Validation of answers against generated/openapi.json (issue 4: every response validated against the OpenAPI schema). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export const documentPath = fileURLToPath(new URL("../generated/openapi.json", import.meta.url));

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: unknown[];
  requestBody?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, unknown> };
}

let cached: { document: OpenApiDocument; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

/** The OpenAPI document, loaded once. */
export function openApiDocument(): OpenApiDocument {
  return state().document;
}

function state() {
  if (cached) return cached;
  const document = JSON.parse(readFileSync(documentPath, "utf8")) as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of ["int32", "int64", "double", "float"]) ajv.addFormat(f, true);
  ajv.addSchema(document as object, "openapi.json");
  cached = { document, ajv, validators: new Map() };
  return cached;
}

/** Finds the method and path template of an operation. */
export function operationLocation(operationId: string): { method: string; path: string; operation: OpenApiOperation } {
  for (const [path, item] of Object.entries(state().document.paths)) {
    for (const [method, operation] of Object.entries(item)) if (operation.operationId === operationId) return { method, path, operation };
  }
  throw new Error(`unknown operation ${operationId}`);
}

/** The statuses the contract documents for an operation. */
export function documentedStatuses(operationId: string): number[] {
  return Object.keys(operationLocation(operationId).operation.responses).map(Number);
}

/** A compiled validator of a named component schema, e.g. `Deployment`. */
export function componentValidator(name: string): ValidateFunction {
  return validatorFor(`openapi.json#/components/schemas/${name}`);
}

function validatorFor(ref: string): ValidateFunction {
  const s = state();
  const known = s.validators.get(ref);
  if (known) return known;
  const compiled = s.ajv.compile({ $ref: ref });
  s.validators.set(ref, compiled);
  return compiled;
}

const pointerEscape = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Checks an answer of an operation against the contract: the status is documented, the media type
 * is the documented one, and the body validates. Returns the problems found (empty when it conforms).
 */
export function validateAnswer(operationId: string, status: number, contentType: string | undefined, body: unknown): string[] {
  const { method, path, operation } = operationLocation(operationId);
  return validateAs(operationId, method, path, operation, String(status), contentType, body);
}

/**
 * Checks the body of a success answer against the documented success response, whatever its 2xx
 * status: the interface spec only requires a 2xx for most operations, so an implementation that
 * answers 200 where the profile chose 201 still has its records judged (the status itself is a
 * SHOULD check of its own).
 */
export function validateSuccessBody(operationId: string, contentType: string | undefined, body: unknown): string[] {
  const { method, path, operation } = operationLocation(operationId);
  const success = Object.keys(operation.responses).find((s) => /^2\d\d$/.test(s));
  if (!success) return [`${operationId} documents no success answer`];
  return validateAs(operationId, method, path, operation, success, contentType, body);
}

function validateAs(operationId: string, method: string, path: string, operation: OpenApiOperation, status: string, contentType: string | undefined, body: unknown): string[] {
  const response = operation.responses[status] ?? operation.responses.default;
  if (!response) return [`status ${status} is not a documented answer of ${operationId} (documented: ${Object.keys(operation.responses).join(", ")})`];
  if (!response.content) return [];
  const mediaTypes = Object.keys(response.content);
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!mediaTypes.includes(mediaType)) return [`Content-Type '${contentType ?? "(none)"}' is not the documented ${mediaTypes.join(" or ")}`];
  if (body === undefined) return ["the body is not JSON"];
  const ref = `openapi.json#/paths/${pointerEscape(path)}/${method}/responses/${status in operation.responses ? status : "default"}/content/${pointerEscape(mediaType)}/schema`;
  const validate = validatorFor(ref);
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${e.params && "allowedValues" in e.params ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")})` : ""}`);
}
