/** Judges an answer against the contract: the status is documented for the operation, the media type is the documented one, and the body validates. */
import { type ContractAjv, createContractAjv } from "./ajv.js";
import { decisionAt } from "./decision-marks.js";
import { interfaceDocument } from "./interface-document.js";
import { type ContractOperation, operation as findOperation } from "./operations.js";

/** Which level of the contract judges a body (D-220): the full contract, or only what the interface spec states. */
export type ContractLevel = "full" | "interface";

/** Validators that stop at the first error (every answer) and that find every error (a small answer that failed). */
const contractAjv: Partial<Record<`${ContractLevel}-${"first" | "all"}`, ContractAjv>> = {};
/** Compiled on first use: a server that never checks its answers pays nothing. */
function validators(level: ContractLevel, errors: "first" | "all"): ContractAjv {
  contractAjv[`${level}-${errors}`] ??= createContractAjv({
    allErrors: errors === "all",
    ...(level === "interface" ? { document: interfaceDocument() } : {}),
  });
  return contractAjv[`${level}-${errors}`]!;
}

/**
 * The most JSON values an answer may hold for its errors to be described in full (D-460): a larger one is described
 * by its first error, as every error of a body of millions of values would cost millions of error objects.
 */
const describedValues = 20_000;

/** Whether a JSON value holds at most `most` values (itself, its items and members, at any depth); stops counting past it. */
function holdsAtMost(value: unknown, most: number): boolean {
  let left = most;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    left -= 1;
    if (left < 0) return false;
    if (Array.isArray(next)) pending.push(...next.slice(0, left + 1));
    else if (next !== null && typeof next === "object") pending.push(...Object.values(next).slice(0, left + 1));
  }
  return true;
}

/**
 * The problems with an answer of an operation (empty when it conforms). With `anySuccess`, a 2xx
 * answer is judged by the documented success body whatever its exact status: the interface spec
 * requires only a 2xx for most operations (D-06), and the status is then a check of its own. `level` picks the contract
 * that judges the body (default the full one; MUST checks ask for the interface level, D-220).
 */
export function answerProblems(
  operationId: string,
  answer: { status: number; contentType?: string | undefined; body: unknown },
  options: { anySuccess?: boolean; level?: ContractLevel } = {},
): string[] {
  const operation = findOperation(operationId);
  const status =
    options.anySuccess && answer.status >= 200 && answer.status < 300 ? operation.successStatus : answer.status;
  if (!operation.statuses.includes(status)) {
    return [
      `status ${answer.status} is not a documented answer of ${operationId} (documented: ${operation.statuses.join(", ")})`,
    ];
  }
  return bodyProblems(operation, status, answer.contentType, answer.body, options.level ?? "full");
}

/**
 * Whether a media type (without parameters, lower case) labels JSON: `application/json` or any `application/*+json`
 * (RFC 6839's structured syntax suffix). The interface spec says only "Bodies are JSON", so at the interface level
 * either is the documented `application/json`; exactly `application/json` is D-381 (SHOULD).
 */
export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/.test(mediaType);
}

function bodyProblems(
  operation: ContractOperation,
  status: number,
  contentType: string | undefined,
  body: unknown,
  level: ContractLevel,
): string[] {
  const documented = operation.responses[String(status)];
  if (!documented) return [];
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const jsonAtInterface =
    level === "interface" && documented.mediaType === "application/json" && isJsonMediaType(mediaType);
  if (mediaType !== documented.mediaType && !jsonAtInterface)
    return [`Content-Type '${contentType ?? "(none)"}' is not the documented ${documented.mediaType}`];
  if (body === undefined) return ["the body is not JSON"];
  // the first error decides (D-460); a small body that failed is validated again for its first ten errors
  const first = validators(level, "first").at(documented.pointer);
  if (first(body)) return [];
  const validate = holdsAtMost(body, describedValues) ? validators(level, "all").at(documented.pointer) : first;
  if (validate !== first) validate(body);
  return (validate.errors ?? []).slice(0, 10).map((error) => {
    const allowed =
      error.params && "allowedValues" in error.params
        ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.join(", ")})`
        : "";
    const decision = level === "full" ? decisionAt(documented.schema, error.instancePath) : undefined;
    return `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}${allowed}${decision ? ` (${decision})` : ""}`;
  });
}
