/** Request validation from the generated OpenAPI (profile choice 4: 422): parameters coerced, bodies not, all compiled once at start-up [D-25, D-28, D-64]. */
import type { ValidateFunction } from "ajv";
import { HttpProblem } from "../errors/http-problem.js";
import { closeObjectSchemas, createAjv, documentId } from "./ajv-instance.js";
import { bodyFieldErrors, parameterFieldErrors } from "./field-errors.js";
import { listOperations, type OpenApiDocument, type OpenApiParameter } from "./openapi-document.js";

/** Raw request parts as Koa exposes them. */
export interface RawRequestParts {
  query: Record<string, string | string[] | undefined>;
  path: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/** The validators of one operation. */
export interface OperationValidators {
  /** Coerced, defaulted parameters keyed by parameter name; throws a 422 HttpProblem. */
  parameters(raw: RawRequestParts): Record<string, unknown>;
  /** Validates the body in place (unknown fields removed, defaults applied); throws a 422 HttpProblem. */
  body(value: unknown): void;
  readonly hasBody: boolean;
}

/** Compiles the validators of every operation of the document, keyed by operationId. */
export function compileRequestValidators(document: OpenApiDocument): Map<string, OperationValidators> {
  // Parameters arrive as strings: coerce them (and single-element arrays) to the schema's types.
  const parameterAjv = createAjv(document.components.schemas, { coerceTypes: "array", useDefaults: true });
  // Bodies are JSON: no coercion; unknown fields are removed (closed schemas) and defaults applied.
  const bodyAjv = createAjv(closeObjectSchemas(document), { coerceTypes: false, useDefaults: true, removeAdditional: true });

  const validators = new Map<string, OperationValidators>();
  for (const { operationId, operation, parameters } of listOperations(document)) {
    const parameterValidator = parameterAjv.compile({
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, rebase(p.schema)])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
    });
    const bodySchema = operation.requestBody?.content["application/json"]?.schema;
    const bodyValidator = bodySchema ? bodyAjv.compile(rebase(bodySchema)) : undefined;
    validators.set(operationId, {
      hasBody: bodyValidator !== undefined,
      parameters: (raw) => validateParameters(parameters, parameterValidator, raw),
      body: (value) => {
        if (!bodyValidator) return;
        if (!bodyValidator(value)) {
          const errors = bodyFieldErrors(bodyValidator.errors ?? []);
          throw new HttpProblem("validation", `The request body breaks the schema in ${places(errors.length)}; see errors.`, errors);
        }
      },
    });
  }
  return validators;
}

function validateParameters(
  parameters: OpenApiParameter[],
  validator: ValidateFunction,
  raw: RawRequestParts,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const repeated: string[] = [];
  const malformed: Array<{ parameter: string; detail: string }> = [];
  for (const parameter of parameters) {
    const value = rawValue(parameter, raw);
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    if (parameter.schema.type === "array") {
      // explode: false (the form style of the contract): one comma-separated value, possibly repeated.
      data[parameter.name] = values.flatMap((v) => v.split(","));
    } else if (values.length > 1) {
      repeated.push(parameter.name);
    } else if (!isNumeralOfType(values[0]!, parameter.schema.type)) {
      malformed.push({ parameter: parameter.name, detail: `must be ${parameter.schema.type === "integer" ? "an integer" : "a number"} in decimal notation` });
    } else {
      data[parameter.name] = values[0];
    }
  }
  const valid = validator(data);
  const errors = [
    ...repeated.map((name) => ({ parameter: name, detail: "must be given at most once" })),
    ...malformed,
    ...(valid ? [] : parameterFieldErrors(validator.errors ?? [])),
  ];
  if (errors.length > 0) {
    throw new HttpProblem("validation", `The request parameters break the schema in ${places(errors.length)}; see errors.`, errors);
  }
  return data;
}

// Ajv coerces any string JavaScript reads as a number ("0x10", "1e1", " 5"); a query numeral must be
// plain decimal digits, as a client following the contract writes it.
const integerText = /^-?\d+$/;
const numberText = /^-?\d+(\.\d+)?$/;

/** Whether a raw parameter value is acceptable text for an integer or number schema (any text for other types). */
function isNumeralOfType(value: string, type: unknown): boolean {
  if (type === "integer") return integerText.test(value);
  if (type === "number") return numberText.test(value);
  return true;
}

function rawValue(parameter: OpenApiParameter, raw: RawRequestParts): string | string[] | undefined {
  switch (parameter.in) {
    case "query":
      return raw.query[parameter.name];
    case "path":
      return raw.path[parameter.name];
    case "header":
      return raw.headers[parameter.name.toLowerCase()];
    default:
      return undefined;
  }
}

/** Points the schema's `#/components/...` refs at the registered document. */
function rebase(schema: unknown): Record<string, unknown> {
  const text = JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${documentId}#/`);
  return JSON.parse(text) as Record<string, unknown>;
}

function places(count: number): string {
  return count === 1 ? "1 place" : `${count} places`;
}

