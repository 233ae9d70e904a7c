/** Prism's contract violations (`sl-violations` header, `validation` member) and their RFC 9457 form (D-16). */
import type { Problem, ProblemFieldError } from "../../generated/client.js";

/** One violation as Prism reports it. */
export interface Violation {
  /** e.g. `["request", "query", "limit"]`, `["response", "body", "resources", "0", "id"]`. */
  location: string[];
  severity: string;
  /** Ajv keyword, or an HTTP status for security and media-type checks; absent for a status or media type the response documents not. */
  code?: string | number;
  message: string;
}

/** The violations of an `sl-violations` header; a header Prism truncated ("Too many violations!") yields one summary entry. */
export function parseViolationsHeader(header: string | null | undefined): Violation[] {
  if (!header) return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? parsed.filter(isViolation) : [];
  } catch {
    return [{ location: [], severity: "Error", code: "truncated", message: header.slice(0, 200) }];
  }
}

/** Whether a value has the shape of a Prism violation. */
export function isViolation(value: unknown): value is Violation {
  const candidate = value as Violation;
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray(candidate.location) &&
    typeof candidate.message === "string"
  );
}

/** The violations found in the request (Prism prefixes them with "request"; its own 422 body omits the prefix). */
export function requestViolations(violations: Violation[]): Violation[] {
  return violations
    .filter((violation) => violation.location[0] !== "response")
    .map((violation) => ({
      ...violation,
      location: violation.location[0] === "request" ? violation.location.slice(1) : violation.location,
    }));
}

/** The violations found in the response. */
export function responseViolations(violations: Violation[]): Violation[] {
  return violations.filter((violation) => violation.location[0] === "response");
}

/** Escapes one JSON Pointer segment (RFC 6901). */
function pointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Ajv's words without Prism's "Request body property a.b " prefix. */
function stripPrefix(message: string): string {
  return message.replace(/^Request (?:body|query|path|header)(?: (?:property|parameter) \S+)? /, "");
}

/**
 * The field errors of request violations (location without the "request" prefix). Prism reports
 * header names in lower case; `headerName` gives them the document's spelling (`X-Tenant-Id`). A nullable field
 * (`anyOf [X, null]`) that breaks X also gets "must be null" and "must match a schema in anyOf" from
 * Ajv; those say nothing a client can act on and are dropped when a more specific error exists.
 */
export function fieldErrors(
  violations: Violation[],
  headerName: (lowerCase: string) => string = (name) => name,
): ProblemFieldError[] {
  const errors: ProblemFieldError[] = [];
  for (const violation of violations) {
    const [where, ...path] = violation.location;
    const required = /must have required property '([^']+)'/.exec(violation.message);
    if (where === "body") {
      const segments = required ? [...path, required[1]!] : path;
      errors.push({
        pointer: segments.map((segment) => `/${pointerSegment(segment)}`).join(""),
        detail: required ? "is required" : stripPrefix(violation.message),
      });
    } else if (where === "query" || where === "path" || where === "header") {
      const name = where === "header" ? headerName(path[0] ?? "") : (path[0] ?? "");
      errors.push({ parameter: name, detail: required ? "is required" : stripPrefix(violation.message) });
    }
  }
  const noise = (error: ProblemFieldError) => /^must (?:be null|match a schema in anyOf)$/.test(error.detail);
  const specific = errors.filter((error) => !noise(error));
  const unique = new Map<string, ProblemFieldError>();
  for (const error of specific.length > 0 ? specific : errors)
    unique.set(`${error.pointer ?? ""}|${error.parameter ?? ""}|${error.detail}`, error);
  return [...unique.values()];
}

/** The 422 problem for request violations, worded like the contract's own examples. */
export function validationProblem(violations: Violation[], headerName?: (lowerCase: string) => string): Problem {
  const errors = fieldErrors(violations, headerName);
  const inBody = errors.some((error) => error.pointer !== undefined);
  const inParameters = errors.some((error) => error.parameter !== undefined);
  const subject =
    inBody && inParameters ? "The request breaks" : inBody ? "The request body breaks" : "The request parameters break";
  const places = errors.length === 1 ? "1 place" : `${errors.length} places`;
  return {
    type: "urn:deployment-service:problem:validation",
    title: "Request validation failed",
    status: 422,
    detail: `${subject} the schema in ${places}; see errors.`,
    errors,
  };
}
