/** Request validation from the contract's operations table (D-16: 422) with the standalone validators of generated/validators.ts (D-88), nothing compiled at start-up [D-25, D-28, D-64, D-310]. */
import type { ValidateFunction } from "ajv";
import type { ContractOperation, ContractParameter } from "../../contract/operations.js";
import { isStorableText, unstorableTextDetail, unstorableTextPointers } from "../../contract/storable-text.js";
import { bodyValidators, parameterValidators } from "../../generated/validators.js";
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

const compiled = new WeakMap<ContractOperation, OperationValidators>();

/** The validators of one operation (every app of the process shares them). */
export function compileOperationValidators(operation: ContractOperation): OperationValidators {
  let validators = compiled.get(operation);
  if (!validators) {
    validators = bind(operation);
    compiled.set(operation, validators);
  }
  return validators;
}

function bind(operation: ContractOperation): OperationValidators {
  const { parameters } = operation;
  const parameterValidator = parameterValidators[operation.id];
  const bodyValidator = operation.requestBody ? bodyValidators[operation.id] : undefined;
  if (!parameterValidator || (operation.requestBody && !bodyValidator)) {
    throw new Error(`generated/validators.ts has no validator for ${operation.id}: run \`npm run generate\``);
  }
  // The query names the operation declares, by name, for the unknown-name check of every request (D-310).
  const queryParameters = new Map(
    parameters.filter((parameter) => parameter.in === "query").map((parameter) => [parameter.name, parameter]),
  );
  return {
    parameters: (raw) => validateParameters(parameters, queryParameters, parameterValidator, raw),
    body:
      bodyValidator &&
      ((value) => {
        if (bodyValidator(value)) {
          // Checked on what the schema kept (unknown fields removed): every string a store would hold (D-111).
          const unstorable = unstorableTextPointers(value);
          if (unstorable.length === 0) return;
          throw new HttpProblem(
            "validation",
            `The request body has text that cannot be stored as sent in ${places(unstorable.length)}; see errors.`,
            unstorable.map((pointer) => ({ pointer, detail: unstorableTextDetail })),
          );
        }
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
  queryParameters: ReadonlyMap<string, ContractParameter>,
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
    if (!values.every(isStorableText)) {
      // A NUL or a lone surrogate never reaches a query (D-111).
      malformed.push({ parameter: parameter.name, detail: unstorableTextDetail });
    } else if (parameter.schema.type === "array") {
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
    ...unknownQueryNames(queryParameters, raw.query),
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

/**
 * A query name the operation does not declare (`status[]`, `limit[]`, `statuss`) is refused, not ignored: an
 * ignored filter widens the list the client believes filtered (D-310).
 */
function unknownQueryNames(
  declared: ReadonlyMap<string, ContractParameter>,
  query: RawRequestParts["query"],
): Array<{ parameter: string; detail: string }> {
  return Object.keys(query)
    .filter((name) => !declared.has(name))
    .map((name) => {
      const meant = declared.get(/^([^[\]]+)\[[^\]]*\]$/.exec(name)?.[1] ?? "");
      const hint =
        meant === undefined
          ? ""
          : `; send ${meant.name}=…${meant.schema.type === "array" ? " with the values comma-separated" : " once"}`;
      return { parameter: name, detail: `is not a parameter of this operation${hint}` };
    });
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
