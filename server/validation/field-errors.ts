/** Turns Ajv errors into the `errors[]` of a 422 problem (D-16): a JSON Pointer for body fields, a name for parameters. */
import type { ErrorObject } from "ajv";
import type { ProblemFieldError } from "../../contract/schemas.js";

/** At most this many field errors are reported, so that a huge invalid array cannot make a huge answer. */
const maxErrors = 50;

/** One readable message per failing location, nullable-branch noise removed. */
export function describeErrors(errors: ErrorObject[]): Array<{ path: string; detail: string }> {
  const located = errors
    .filter((error) => error.keyword !== "anyOf" && error.keyword !== "oneOf" && error.keyword !== "if")
    .map((error) => ({ path: locate(error), error }));
  // `X | null` is `anyOf: [X, {type: null}]`: when X fails, Ajv also reports "must be null" at the
  // same place; drop it whenever something more specific was said at that place or below it.
  const specific = located.filter(({ path, error }) => {
    if (!(error.keyword === "type" && error.params.type === "null")) return true;
    return !located.some(
      (other) =>
        other.error !== error &&
        !(other.error.keyword === "type" && other.error.params.type === "null") &&
        (other.path === path || other.path.startsWith(`${path}/`)),
    );
  });
  const seen = new Set<string>();
  const described: Array<{ path: string; detail: string }> = [];
  for (const { path, error } of specific) {
    const detail = message(error);
    const key = `${path}\u0000${detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    described.push({ path, detail });
    if (described.length >= maxErrors) break;
  }
  return described;
}

/** Body errors: `pointer` is the JSON Pointer of the failing field. */
export function bodyFieldErrors(errors: ErrorObject[]): ProblemFieldError[] {
  return describeErrors(errors).map(({ path, detail }) => ({ pointer: path, detail }));
}

/** Parameter errors: `parameter` is the name of the failing parameter (the first segment of the path). */
export function parameterFieldErrors(errors: ErrorObject[]): ProblemFieldError[] {
  return describeErrors(errors).map(({ path, detail }) => ({
    parameter: decodeSegment(path.split("/")[1] ?? ""),
    detail,
  }));
}

/** JSON Pointer of the value the error is about; a missing property points at the property itself. */
function locate(error: ErrorObject): string {
  if (error.keyword === "required")
    return `${error.instancePath}/${escapeSegment(String(error.params.missingProperty))}`;
  if (error.keyword === "dependentRequired")
    return `${error.instancePath}/${escapeSegment(String(error.params.missingProperty))}`;
  return error.instancePath;
}

function message(error: ErrorObject): string {
  switch (error.keyword) {
    case "required":
      return "is required";
    case "enum":
      return `must be one of: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case "pattern":
      return `must match pattern ${String(error.params.pattern)}`;
    case "format":
      return `must be a valid ${String(error.params.format)}`;
    default:
      return error.message ?? "is invalid";
  }
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function decodeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
