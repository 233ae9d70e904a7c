/** The operations table: every operation of the contract with its method, path, statuses, parameters and schemas (generated/operations.json). */
import { readFileSync } from "node:fs";
import type { ParameterLocation, SchemaObject } from "openapi3-ts/oas31";
import type { operations as GeneratedOperations } from "../generated/types.js";

/** The operationId of an operation of the contract. */
export type OperationId = keyof GeneratedOperations;

/** One parameter, its schema dereferenced. */
export interface ContractParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** For array query parameters: whether each item is its own `name=value` (false: comma-separated). */
  explode: boolean;
  schema: SchemaObject;
}

/** A documented body: its media type, the JSON Pointer of its schema in the document, and the schema dereferenced. */
export interface ContractBody {
  mediaType: string;
  /** Points into generated/openapi.json; Ajv resolves the document's own `$ref`s from there. */
  pointer: string;
  schema: SchemaObject;
}

/** One operation of the contract. */
export interface ContractOperation {
  id: OperationId;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The path template, e.g. `/v1/integrations/codehost/{integration_id}/repos`. */
  path: string;
  /** The first paragraph of the operation's description. */
  summary: string;
  /** The one 2xx status the operation answers with. */
  successStatus: number;
  /** Every documented status, ascending. */
  statuses: number[];
  parameters: ContractParameter[];
  requestBody?: ContractBody & { required: boolean };
  /** The body of each documented status that has one (errors: the problem details schema). */
  responses: Record<string, ContractBody>;
}

/** The operations table as generated: operationId → operation. */
export type OperationsTable = Record<OperationId, ContractOperation>;

/** Every operation of the contract, keyed by operationId. */
export const operations = JSON.parse(
  readFileSync(new URL("../generated/operations.json", import.meta.url), "utf8"),
) as OperationsTable;

/** Every operation of the contract, in the document's path order. */
export const operationList: readonly ContractOperation[] = Object.values(operations);

/** The operation with this id; throws for an id the contract does not have. */
export function operation(id: string): ContractOperation {
  const found = operations[id as OperationId];
  if (!found) throw new Error(`the contract has no operation ${id}`);
  return found;
}

/** Whether the contract has an operation with this id. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(operations, id);
}

/** A value for a path parameter no caller named: its schema's first example, else a well-formed id. */
function sampleParameter(parameter: ContractParameter | undefined): string {
  const schema = parameter?.schema;
  const example = schema?.examples?.[0] ?? schema?.example;
  if (example !== undefined) return String(example);
  return "00000000-0000-4000-8000-000000000000";
}

/**
 * The operation's path with every path parameter filled in: from `values` when named there, else from the
 * parameter's schema, so a test or a doc that walks every operation needs no edit for a new one (D-405).
 */
export function examplePath(operation: ContractOperation, values: Readonly<Record<string, string>> = {}): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(
      values[name] ?? sampleParameter(operation.parameters.find((p) => p.in === "path" && p.name === name)),
    ),
  );
}
