/** Response validation against the contract (switchable by VALIDATE_RESPONSES): a response that breaks the schema is a server bug. */
import { type ContractAjv, type ContractOperation, createContractAjv } from "../../contract/index.js";
import { describeErrors } from "./field-errors.js";

/** Checks a response body of an operation; returns the problems found, empty when it conforms. */
export type ResponseChecker = (operation: ContractOperation, status: number, body: unknown) => string[];

let shared: ContractAjv | undefined;

/** The checker; its Ajv is created once per process and each body schema compiled on first use. */
export function responseChecker(): ResponseChecker {
  // allErrors off: a valid response (the usual case) costs the same, a broken one is reported by its first fault.
  shared ??= createContractAjv({ allErrors: false });
  const ajv = shared;
  return (operation, status, body) => {
    const documented = operation.responses[String(status)];
    if (!documented) return [`status ${status} is not documented for ${operation.id}`];
    const validate = ajv.at(documented.pointer);
    if (validate(body)) return [];
    return describeErrors(validate.errors ?? []).map(({ path, detail }) => `${path || "/"} ${detail}`);
  };
}
