/** Request validation from the contract's operations table (D-16: 422), compiled once per operation when its route is registered [D-25, D-28, D-64]. */
import {
  type ContractAjv,
  type ContractOperation,
  type ContractParameter,
  createContractAjv,
  type ValidateFunction,
} from "../../contract/index.js";
import { HttpProblem } from "../errors/http-problem.js";
import { bodyFieldErrors, parameterFieldErrors } from "./field-errors.js";

/** Raw request parts as Koa exposes them. */
interface RawRequestParts {
  query: Record<string, string | string[] | undefined>;
  path: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/** The validators of one operation. */
interface OperationValidators {
  /** Coerced, defaulted parameters keyed by parameter name; throws a 422 HttpProblem. */
  parameters(raw: RawRequestParts): Record<string, unknown>;
  /** Validates the body in place (unknown fields removed, defaults applied); throws a 422 HttpProblem. Absent when the operation takes no body. */
  body: ((value: unknown) => void) | undefined;
}

/** The two Ajv set-ups of request validation, shared by every operation of the process. */
interface RequestAjvs {
  /** Parameters arrive as strings: coerce them (and single values to arrays), apply defaults. */
  parameters: ContractAjv;
  /** Bodies are JSON: no coercion; unknown fields removed (D-28) and defaults applied. */
  bodies: ContractAjv;
}

let shared: RequestAjvs | undefined;
/** Created once per process: several servers in one test process share them. */
function requestAjvs(): RequestAjvs {
  shared ??= {
    parameters: createContractAjv({ coerceParameters: true, useDefaults: true }),
    bodies: createContractAjv({ useDefaults: true, removeUnknownFields: true }),
  };
  return shared;
}

const compiled = new WeakMap<ContractOperation, OperationValidators>();

/** The validators of one operation, compiled on the first call for it in this process (every app of the process shares them). */
export function compileOperationValidators(operation: ContractOperation): OperationValidators {
  let validators = compiled.get(operation);
  if (!validators) {
    validators = compile(operation, requestAjvs());
    compiled.set(operation, validators);
  }
  return validators;
}

function compile(operation: ContractOperation, ajvs: RequestAjvs): OperationValidators {
  const { parameters } = operation;
  const parameterValidator = ajvs.parameters.compile({
    type: "object",
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  });
  const bodyValidator = operation.requestBody ? ajvs.bodies.at(operation.requestBody.pointer) : undefined;
  return {
    parameters: (raw) => validateParameters(parameters, parameterValidator, raw),
    body:
      bodyValidator &&
      ((value) => {
        if (bodyValidator(value)) return;
        const errors = bodyFieldErrors(bodyValidator.errors ?? []);
        throw new HttpProblem(
          "validation",
          `The request body breaks the schema in ${places(errors.length)}; see errors.`,
          errors,
        );
      }),
  };
}

function validateParameters(
  parameters: ContractParameter[],
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
      malformed.push({
        parameter: parameter.name,
        detail: `must be ${parameter.schema.type === "integer" ? "an integer" : "a number"} in decimal notation`,
      });
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
    throw new HttpProblem(
      "validation",
      `The request parameters break the schema in ${places(errors.length)}; see errors.`,
      errors,
    );
  }
  return data;
}

// Ajv coerces any string JavaScript reads as a number ("0x10", "1e1", " 5"); a query numeral must be
// plain decimal digits, as a client following the contract writes it (D-64).
const integerText = /^-?\d+$/;
const numberText = /^-?\d+(\.\d+)?$/;

/** Whether a raw parameter value is acceptable text for an integer or number schema (any text for other types). */
function isNumeralOfType(value: string, type: unknown): boolean {
  if (type === "integer") return integerText.test(value);
  if (type === "number") return numberText.test(value);
  return true;
}

function rawValue(parameter: ContractParameter, raw: RawRequestParts): string | string[] | undefined {
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

function places(count: number): string {
  return count === 1 ? "1 place" : `${count} places`;
}
