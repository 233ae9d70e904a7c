/** What keeps an error answer from being an RFC 9457 problem detail of the contract (D-16), in words, first fault first. */
import { document } from "../../contract/index.js";
import type { WireAnswer } from "../target/wire.js";
import { isObject } from "./assert.js";

/** The ProblemType values the contract declares. */
const problemTypes = (document.components?.schemas?.ProblemType as { enum?: string[] } | undefined)?.enum ?? [];

/** The faults of an answer of `status` with `contentType` and the parsed `body` (undefined when it did not parse). */
export function problemFaults(status: number, contentType: string, body: unknown): string[] {
  if (!contentType.toLowerCase().startsWith("application/problem+json"))
    return [`Content-Type is '${contentType}', expected application/problem+json`];
  if (!isObject(body)) return ["the body is not a JSON object"];
  const faults = ["type", "title", "detail"]
    .filter((field) => !(typeof body[field] === "string" && (body[field] as string).length > 0))
    .map((field) => `the problem has no ${field} string`);
  if (body.status !== status)
    faults.push(`the problem's status ${JSON.stringify(body.status)} differs from the HTTP status ${status}`);
  if (!problemTypes.includes(String(body.type)))
    faults.push(`the problem type ${JSON.stringify(body.type)} is not one of the ProblemType values`);
  return faults;
}

/** ProblemFieldError as the contract declares it: the members an item of a problem's `errors` requires, and its string members. */
const fieldError = document.components?.schemas?.ProblemFieldError as
  | { required?: string[]; properties?: Record<string, { type?: string }> }
  | undefined;
const fieldErrorRequired = fieldError?.required ?? [];
const fieldErrorStrings = Object.entries(fieldError?.properties ?? {})
  .filter(([, schema]) => schema.type === "string")
  .map(([name]) => name);

/** The faults of a problem's `errors` member against ProblemFieldError (D-16): absent, or a list of objects with their required strings. */
export function fieldErrorFaults(problem: unknown): string[] {
  if (!isObject(problem) || problem.errors === undefined) return [];
  if (!Array.isArray(problem.errors)) return [`errors is ${JSON.stringify(problem.errors)}, not a list`];
  return problem.errors.flatMap((item, index) => {
    if (!isObject(item)) return [`errors/${index} is ${JSON.stringify(item)}, not an object`];
    return [
      ...fieldErrorRequired.filter((name) => item[name] === undefined).map((name) => `errors/${index} has no ${name}`),
      ...fieldErrorStrings
        .filter((name) => item[name] !== undefined && typeof item[name] !== "string")
        .map((name) => `errors/${index}/${name} is ${JSON.stringify(item[name])}, not a string`),
    ];
  });
}

/** The faults of an answer read off a connection, whose body is text that may not be JSON. */
export function wireProblemFaults(answer: WireAnswer): string[] {
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    // a body that is not JSON is reported as not an object
  }
  return problemFaults(answer.status, answer.headers["content-type"] ?? "", body);
}
