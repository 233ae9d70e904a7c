/** The request fields and query parameters of the contract that no request of a run sent with a non-null value (D-490). */
import type { ContractOperation } from "../../contract/index.js";
import { requestFields } from "../model/request-fields.js";
import type { Verdict } from "../runner/verdict.js";

/** What the walk needs of an operation: its id, and its parameters and body when it has them. */
export type FieldShape = { id: string } & Partial<Pick<ContractOperation, "parameters" | "requestBody">>;

/**
 * `operationId field` of each declared field no verdict's requests sent non-null, in the contract's order; with
 * `sendable`, only the fields it allows (a field no source of the run's hosting kind takes cannot be sent, D-48).
 */
export function unsentFields(
  verdicts: readonly Pick<Verdict, "sentFields">[],
  operations: readonly FieldShape[],
  sendable: (operationId: string, field: string) => boolean = () => true,
): string[] {
  const sent = new Set(verdicts.flatMap((v) => v.sentFields ?? []));
  return operations.flatMap((op) =>
    requestFields({ parameters: op.parameters ?? [], ...(op.requestBody ? { requestBody: op.requestBody } : {}) })
      .filter((field) => sendable(op.id, field))
      .map((field) => `${op.id} ${field}`)
      .filter((key) => !sent.has(key)),
  );
}
