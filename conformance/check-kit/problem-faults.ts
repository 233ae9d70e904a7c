/** What keeps an error answer from being an RFC 9457 problem detail of the contract (D-16), in words, first fault first. */
import { createContractAjv, document, type ValidateFunction } from "../../contract/index.js";
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

/** The contract's validator of a problem's `errors`, compiled on first use. */
let errorsValidator: ValidateFunction | undefined;

/** The faults of a problem's `errors` member against the contract's ProblemFieldError list (D-16); none when absent. */
export function fieldErrorFaults(problem: unknown): string[] {
  if (!isObject(problem) || problem.errors === undefined) return [];
  errorsValidator ??= createContractAjv().at("/components/schemas/Problem/properties/errors");
  if (errorsValidator(problem.errors)) return [];
  return (errorsValidator.errors ?? []).map(({ instancePath, message }) => `errors${instancePath} ${message}`);
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
