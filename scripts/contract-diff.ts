/** Tells a spec author what a change of the OpenAPI document breaks for clients (contract issue). */
import type { OpenApiDocument } from "./openapi-document.js";
import { listOperations } from "./openapi-document.js";

/** One difference between two versions of the contract. */
export interface ContractChange {
  breaking: boolean;
  where: string;
  what: string;
}

type Schema = {
  type?: string | string[];
  anyOf?: Schema[];
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  $ref?: string;
  items?: Schema;
};

/** Lists the changes from `before` to `after`: operations, parameters, schemas, fields and enum values. */
export function diffContracts(before: OpenApiDocument, after: OpenApiDocument): ContractChange[] {
  const changes: ContractChange[] = [];
  const beforeOps = new Map(listOperations(before).map((op) => [op.operationId, op]));
  const afterOps = new Map(listOperations(after).map((op) => [op.operationId, op]));
  for (const [id, op] of beforeOps) {
    const next = afterOps.get(id);
    if (!next) {
      changes.push({ breaking: true, where: id, what: `operation removed (${op.method.toUpperCase()} ${op.path})` });
      continue;
    }
    if (next.path !== op.path || next.method !== op.method) {
      changes.push({ breaking: true, where: id, what: `moved from ${op.method.toUpperCase()} ${op.path} to ${next.method.toUpperCase()} ${next.path}` });
    }
    if (next.successStatus !== op.successStatus) {
      changes.push({ breaking: true, where: id, what: `success status ${op.successStatus} became ${next.successStatus}` });
    }
    // Error statuses only: a changed success status is reported above.
    const oldStatuses = Object.keys(op.operation.responses).filter((code) => !code.startsWith("2"));
    const newStatuses = Object.keys(next.operation.responses).filter((code) => !code.startsWith("2"));
    for (const status of newStatuses.filter((code) => !oldStatuses.includes(code))) {
      changes.push({ breaking: false, where: id, what: `response ${status} added` });
    }
    for (const status of oldStatuses.filter((code) => !newStatuses.includes(code))) {
      changes.push({ breaking: false, where: id, what: `response ${status} removed` });
    }
    const oldParams = new Set(op.parameters.map((p) => `${p.in}:${p.name}`));
    for (const parameter of next.parameters) {
      if (!oldParams.has(`${parameter.in}:${parameter.name}`)) {
        changes.push({ breaking: parameter.required === true, where: id, what: `${parameter.required ? "required" : "optional"} ${parameter.in} parameter ${parameter.name} added` });
      }
    }
    const newParams = new Set(next.parameters.map((p) => `${p.in}:${p.name}`));
    for (const parameter of op.parameters) {
      if (!newParams.has(`${parameter.in}:${parameter.name}`)) {
        changes.push({ breaking: true, where: id, what: `${parameter.in} parameter ${parameter.name} removed` });
      }
    }
  }
  for (const [id, op] of afterOps) {
    if (!beforeOps.has(id)) changes.push({ breaking: false, where: id, what: `operation added (${op.method.toUpperCase()} ${op.path})` });
  }

  const beforeSchemas = (before.components?.schemas ?? {}) as Record<string, Schema>;
  const afterSchemas = (after.components?.schemas ?? {}) as Record<string, Schema>;
  for (const [name, schema] of Object.entries(beforeSchemas)) {
    const next = afterSchemas[name];
    if (!next) {
      changes.push({ breaking: true, where: name, what: "schema removed" });
      continue;
    }
    diffSchema(name, schema, next, changes);
  }
  for (const name of Object.keys(afterSchemas)) {
    if (!beforeSchemas[name]) changes.push({ breaking: false, where: name, what: "schema added" });
  }
  return changes;
}

function diffSchema(where: string, before: Schema, after: Schema, changes: ContractChange[]): void {
  if (describeType(before) !== describeType(after)) {
    changes.push({ breaking: true, where, what: `type ${describeType(before)} became ${describeType(after)}` });
  }
  if (isNullable(before) && !isNullable(after)) changes.push({ breaking: true, where, what: "no longer nullable" });
  for (const value of before.enum ?? []) {
    if (!(after.enum ?? []).includes(value)) changes.push({ breaking: true, where, what: `enum value ${JSON.stringify(value)} removed` });
  }
  for (const value of after.enum ?? []) {
    if (before.enum && !before.enum.includes(value)) changes.push({ breaking: false, where, what: `enum value ${JSON.stringify(value)} added` });
  }
  const required = new Set(before.required ?? []);
  for (const field of after.required ?? []) {
    if (!required.has(field)) changes.push({ breaking: true, where: `${where}.${field}`, what: "became required" });
  }
  for (const [field, property] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[field];
    if (!next) changes.push({ breaking: true, where: `${where}.${field}`, what: "field removed" });
    else diffSchema(`${where}.${field}`, property, next, changes);
  }
  for (const field of Object.keys(after.properties ?? {})) {
    if (!before.properties?.[field]) changes.push({ breaking: false, where: `${where}.${field}`, what: "field added" });
  }
}

/** Whether null is allowed: OpenAPI 3.1 `anyOf: [X, {type: "null"}]` or `type: [X, "null"]`, or 3.0 `nullable`. */
function isNullable(schema: Schema): boolean {
  if (schema.nullable) return true;
  if (Array.isArray(schema.type)) return schema.type.includes("null");
  return (schema.anyOf ?? []).some((member) => member.type === "null");
}

/** The type of a schema without its nullability, e.g. `uuid`, `string:uri`, `Secret[]`. */
function describeType(schema: Schema): string {
  const nonNull = (schema.anyOf ?? []).filter((member) => member.type !== "null");
  const target = nonNull.length === 1 ? nonNull[0]! : (schema.allOf?.[0] ?? schema);
  if (target.$ref) return target.$ref.replace("#/components/schemas/", "");
  if (target.type === "array" && target.items) return `${describeType(target.items)}[]`;
  const type = Array.isArray(target.type) ? target.type.filter((name) => name !== "null").join("|") : target.type;
  return [type ?? "any", target.format].filter(Boolean).join(":");
}
