/** The request and answer types of each operation, from generated/types.ts: what a handler receives and returns. */
import type { operations } from "../generated/types.js";
import type { OperationId } from "./operations.js";

type Parts<Id extends OperationId> = operations[Id]["parameters"];
/** One part (query, path, header) of the parameters; an operation without that part adds nothing. */
type Part<T> = [NonNullable<T>] extends [never] ? unknown : NonNullable<T>;
/** The parameters of an operation (query, path and header) by name. */
export type RequestParameters<Id extends OperationId> = Part<Parts<Id>["query"]> &
  Part<Parts<Id>["path"]> &
  Part<Parts<Id>["header"]>;
/** The JSON body of an operation; undefined for operations without one. */
export type RequestBody<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : undefined;
type Responses<Id extends OperationId> = operations[Id]["responses"];
/** The body of an operation's success answer. */
export type SuccessBody<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201
    ? Responses<Id>[Status] extends { content: { "application/json": infer Body } }
      ? Body
      : never
    : never;
}[keyof Responses<Id>];
