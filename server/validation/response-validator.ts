/** Response validation against the generated OpenAPI (switchable by VALIDATE_RESPONSES): a response that breaks the schema is a server bug. */
import type { ValidateFunction } from "ajv";
import { createAjv, documentId } from "./ajv-instance.js";
import { describeErrors } from "./field-errors.js";
import { listOperations, type OpenApiDocument } from "./openapi-document.js";

/** Checks a response body of an operation; returns the problems found, empty when it conforms. */
export type ResponseChecker = (operationId: string, status: number, contentType: string, body: unknown) => string[];

/** Compiles a validator for every documented response of every operation, once. */
export function compileResponseValidators(document: OpenApiDocument): ResponseChecker {
  // allErrors off: a valid response (the usual case) costs the same, a broken one is reported by its first fault.
  const ajv = createAjv(document.components.schemas, { allErrors: false }, "fast");
  const validators = new Map<string, ValidateFunction>();
  for (const { operationId, operation } of listOperations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [contentType, media] of Object.entries(response.content ?? {})) {
        const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"$ref":"#/', `"$ref":"${documentId}#/`));
        validators.set(`${operationId} ${status} ${contentType}`, ajv.compile(schema));
      }
    }
  }
  return (operationId, status, contentType, body) => {
    const validator = validators.get(`${operationId} ${status} ${contentType}`);
    if (!validator) return [`status ${status} with ${contentType} is not documented for ${operationId}`];
    if (validator(body)) return [];
    return describeErrors(validator.errors ?? []).map(({ path, detail }) => `${path || "/"} ${detail}`);
  };
}
