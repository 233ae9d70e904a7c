/** Response validation against the contract (switchable by VALIDATE_RESPONSES) with the standalone validators of generated/validators.ts (D-88): a response that breaks the schema is a server bug. */
import type { ContractOperation } from "../../contract/operations.js";
import { responseValidators } from "../../generated/validators.js";
import { describeErrors } from "./field-errors.js";

/** Checks a response body of an operation; returns the problems found, empty when it conforms. */
export type ResponseChecker = (operation: ContractOperation, status: number, body: unknown) => string[];

/** The checker (the validators report the first error only: a valid response, the usual case, costs the same). */
export function responseChecker(): ResponseChecker {
  return (operation, status, body) => {
    const validate = operation.responses[String(status)] && responseValidators[`${operation.id}_${status}`];
    if (!validate) return [`status ${status} is not documented for ${operation.id}`];
    if (validate(body)) return [];
    return describeErrors(validate.errors ?? []).map(({ path, detail }) => `${path || "/"} ${detail}`);
  };
}
