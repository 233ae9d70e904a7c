/** Classifies the changes between two dereferenced OpenAPI documents by the side a client sees them from (D-82). */
import { componentKey, type Json } from "./contract-dereference.js";

/** breaking: an existing client can fail; compatible: it cannot; info: worth knowing, judged by the reader. */
export type Severity = "breaking" | "compatible" | "info";

/** Every rule with its severity. The ids are stable: spec/CHANGELOG.md acknowledges changes by them. */
const rules = {
  "operation-removed": "breaking",
  "operation-added": "compatible",
  "operation-moved": "breaking",
  "success-status-changed": "breaking",
  "error-status-added": "info",
  "error-status-removed": "info",
  "type-changed": "breaking",
  "parameter-removed": "breaking",
  "request-field-removed": "breaking",
  "request-required-added": "breaking",
  "request-optional-added": "compatible",
  "request-became-required": "breaking",
  "request-became-optional": "compatible",
  "request-constraint-tightened": "breaking",
  "request-constraint-loosened": "compatible",
  "request-enum-widened": "compatible",
  "response-field-removed": "breaking",
  "response-field-added": "compatible",
  "response-became-optional": "breaking",
  "response-became-required": "compatible",
  "response-became-nullable": "breaking",
  "response-became-non-nullable": "compatible",
  // A client's exhaustive switch over the generated union type no longer covers every value it receives.
  "response-enum-widened": "breaking",
  // The generated union type loses the value: a client's `case` for it stops compiling.
  "response-enum-value-removed": "breaking",
  // A server answering within tighter or looser bounds breaks no parser; a client relying on them may care.
  "response-constraint-changed": "info",
} as const satisfies Record<string, Severity>;

type RuleId = keyof typeof rules;

/** The side of an operation a change is on; "operation" for the operation itself. */
type Side = "request" | "response" | "operation";

/** One classified change. */
export interface ContractChange {
  rule: RuleId;
  severity: Severity;
  operation: string;
  side: Side;
  /** Where in the operation: `body.name`, `query.limit`, `body.resources[].status`, `status 503`; "" for the operation. */
  path: string;
  /** `<operation> <side> <path>`: what spec/CHANGELOG.md names. */
  location: string;
  /** Component schemas on the way to the change, outermost first (empty when inline only). */
  schemas: string[];
  /** What changed, e.g. `maxLength 63 → 10`. */
  detail: string;
  /** The response statuses whose bodies show the change (responses only). */
  statuses: string[];
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Lists the changes from `before` to `after`, both dereferenced (generator/contract-dereference.ts). */
export function classifyChanges(before: Json, after: Json): ContractChange[] {
  const changes = new Changes();
  const beforeOps = operations(before);
  const afterOps = operations(after);
  for (const [id, op] of beforeOps) {
    const next = afterOps.get(id);
    if (!next) {
      changes.add(
        "operation-removed",
        { operation: id, side: "operation", path: "" },
        `${op.method.toUpperCase()} ${op.path}`,
      );
      continue;
    }
    if (next.method !== op.method || next.path !== op.path) {
      changes.add(
        "operation-moved",
        { operation: id, side: "operation", path: "" },
        `${op.method.toUpperCase()} ${op.path} → ${next.method.toUpperCase()} ${next.path}`,
      );
    }
    compareParameters(id, op.operation, next.operation, changes);
    const beforeBody = bodySchema(op.operation.requestBody);
    const afterBody = bodySchema(next.operation.requestBody);
    if (beforeBody && afterBody)
      compareSchema(
        beforeBody,
        afterBody,
        { operation: id, side: "request", path: "body", schemas: [], statuses: [], stack: [] },
        changes,
      );
    else if (beforeBody)
      changes.add("request-field-removed", { operation: id, side: "request", path: "body" }, "request body removed");
    else if (afterBody)
      changes.add(
        next.operation.requestBody.required ? "request-required-added" : "request-optional-added",
        { operation: id, side: "request", path: "body" },
        "request body added",
      );
    compareResponses(id, op.operation, next.operation, changes);
  }
  for (const [id, op] of afterOps) {
    if (!beforeOps.has(id))
      changes.add(
        "operation-added",
        { operation: id, side: "operation", path: "" },
        `${op.method.toUpperCase()} ${op.path}`,
      );
  }
  return changes.list();
}

/** The operations of a document by operation id. */
function operations(document: Json): Map<string, { method: string; path: string; operation: Json }> {
  const found = new Map<string, { method: string; path: string; operation: Json }>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of methods) {
      const operation = item[method] as Json | undefined;
      if (operation?.operationId) found.set(operation.operationId, { method, path, operation });
    }
  }
  return found;
}

/** The schema of a request body or response: its JSON media type's, else its first. */
function bodySchema(holder: Json | undefined): Json | undefined {
  const content = (holder?.content ?? {}) as Record<string, Json>;
  const media = Object.entries(content).find(([type]) => type.includes("json"))?.[1] ?? Object.values(content)[0];
  return media?.schema;
}

function compareParameters(operation: string, before: Json, after: Json, changes: Changes): void {
  const key = (parameter: Json) => `${parameter.in}.${parameter.name}`;
  const beforeParams = new Map(((before.parameters ?? []) as Json[]).map((parameter) => [key(parameter), parameter]));
  const afterParams = new Map(((after.parameters ?? []) as Json[]).map((parameter) => [key(parameter), parameter]));
  for (const [name, parameter] of beforeParams) {
    const next = afterParams.get(name);
    const where = { operation, side: "request" as const, path: name };
    if (!next) {
      changes.add("parameter-removed", where, `${parameter.in} parameter ${parameter.name} removed`);
      continue;
    }
    if (!parameter.required && next.required)
      changes.add("request-became-required", where, "parameter became required");
    if (parameter.required && !next.required)
      changes.add("request-became-optional", where, "parameter became optional");
    if (parameter.schema && next.schema)
      compareSchema(parameter.schema, next.schema, { ...where, schemas: [], statuses: [], stack: [] }, changes);
  }
  for (const [name, parameter] of afterParams) {
    if (beforeParams.has(name)) continue;
    const required = parameter.required === true;
    changes.add(
      required ? "request-required-added" : "request-optional-added",
      { operation, side: "request", path: name },
      `${required ? "required" : "optional"} ${parameter.in} parameter ${parameter.name} added`,
    );
  }
}

function compareResponses(operation: string, before: Json, after: Json, changes: Changes): void {
  const beforeResponses = (before.responses ?? {}) as Record<string, Json>;
  const afterResponses = (after.responses ?? {}) as Record<string, Json>;
  const success = (responses: Record<string, Json>) => Object.keys(responses).find((status) => status.startsWith("2"));
  const beforeSuccess = success(beforeResponses);
  const afterSuccess = success(afterResponses);
  if (beforeSuccess !== afterSuccess) {
    changes.add(
      "success-status-changed",
      { operation, side: "response", path: "status" },
      `success status ${beforeSuccess} → ${afterSuccess}`,
    );
  }
  // The success bodies are compared even when the status moved, so that a moved status hides nothing.
  const pairs: Array<[string, string]> = beforeSuccess && afterSuccess ? [[beforeSuccess, afterSuccess]] : [];
  for (const status of Object.keys(beforeResponses).filter((code) => !code.startsWith("2"))) {
    if (afterResponses[status]) pairs.push([status, status]);
    else
      changes.add(
        "error-status-removed",
        { operation, side: "response", path: `status ${status}` },
        `response ${status} no longer documented`,
      );
  }
  for (const status of Object.keys(afterResponses).filter((code) => !code.startsWith("2"))) {
    if (!beforeResponses[status])
      changes.add(
        "error-status-added",
        { operation, side: "response", path: `status ${status}` },
        `response ${status} documented`,
      );
  }
  for (const [beforeStatus, afterStatus] of pairs) {
    const beforeBody = bodySchema(beforeResponses[beforeStatus]);
    const afterBody = bodySchema(afterResponses[afterStatus]);
    const where = {
      operation,
      side: "response" as const,
      path: "body",
      schemas: [],
      statuses: [afterStatus],
      stack: [],
    };
    if (beforeBody && afterBody) compareSchema(beforeBody, afterBody, where, changes);
    else if (beforeBody) changes.add("response-field-removed", where, `response ${afterStatus} body removed`);
    else if (afterBody) changes.add("response-field-added", where, `response ${afterStatus} body added`);
  }
}

/** Where the walk is: the operation, side and path, the component schemas passed and the schemas being compared (cycles). */
interface Walk {
  operation: string;
  side: "request" | "response";
  path: string;
  schemas: string[];
  statuses: string[];
  stack: Json[];
}

/** A schema without its nullability and single-member `allOf` wrappers, with the components it went through. */
interface Plain {
  schema: Json;
  nullable: boolean;
  names: string[];
}

/** Unwraps `allOf: [X]` (TypeSpec's way to describe a referenced field) and the 3.1 null forms `anyOf: [X, {type: "null"}]`, `type: [..., "null"]`. */
function plain(input: Json): Plain {
  let schema = input;
  let nullable = false;
  const names: string[] = [];
  for (;;) {
    if (typeof schema[componentKey] === "string") names.push(schema[componentKey]);
    const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    const nonNull = union?.filter((member) => member.type !== "null");
    if (union && nonNull && nonNull.length < union.length) {
      nullable = true;
      const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
      schema = nonNull.length === 1 ? { ...nonNull[0], ...withoutName(rest) } : { ...rest, anyOf: nonNull };
      continue;
    }
    // A one-member allOf, anyOf or oneOf is its member.
    const single = (["allOf", "anyOf", "oneOf"] as const).find(
      (key) => Array.isArray(schema[key]) && schema[key].length === 1,
    );
    if (single) {
      const { [single]: members, ...rest } = schema;
      schema = { ...members[0], ...withoutName(rest) };
      continue;
    }
    break;
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    nullable = true;
    const types = schema.type.filter((type: string) => type !== "null");
    schema = { ...schema, type: types.length === 1 ? types[0] : types };
  }
  return { schema, nullable, names };
}

function withoutName(schema: Json): Json {
  const { [componentKey]: _name, ...rest } = schema;
  return rest;
}

/** The JSON type(s) of a schema, e.g. `string`, `integer|string`, `object`. */
function typeOf(schema: Json): string {
  if (schema.type) return ([] as string[]).concat(schema.type).sort().join("|");
  if (schema.properties || schema.additionalProperties) return "object";
  if (schema.items) return "array";
  if (schema.anyOf || schema.oneOf) return "union";
  if (Array.isArray(schema.enum))
    return [...new Set(schema.enum.map((value: unknown) => typeof value))].sort().join("|");
  return "any";
}

/** Bounds a request can only meet more easily when they go up (upper) or down (lower). */
const upperBounds = ["maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties"];
const lowerBounds = ["minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties"];
/** Constraints any change of which narrows what a request may send (removing them loosens). */
const exactConstraints = ["pattern", "format", "multipleOf", "const"];

function compareSchema(beforeInput: Json, afterInput: Json, walk: Walk, changes: Changes): void {
  if (walk.stack.includes(beforeInput)) return;
  const before = plain(beforeInput);
  const after = plain(afterInput);
  const here: Walk = {
    ...walk,
    schemas: [...walk.schemas, ...after.names.filter((name) => !walk.schemas.includes(name))],
    stack: [...walk.stack, beforeInput],
  };
  const request = walk.side === "request";
  const b = before.schema;
  const a = after.schema;

  if (typeOf(b) !== typeOf(a)) {
    changes.add("type-changed", here, `type ${typeOf(b)} → ${typeOf(a)}`);
    return;
  }
  if (before.nullable !== after.nullable) {
    if (request)
      changes.add(
        after.nullable ? "request-constraint-loosened" : "request-constraint-tightened",
        here,
        after.nullable ? "now accepts null" : "no longer accepts null",
      );
    else
      changes.add(
        after.nullable ? "response-became-nullable" : "response-became-non-nullable",
        here,
        after.nullable ? "may now be null" : "never null any more",
      );
  }
  compareEnum(b.enum, a.enum, here, changes);
  compareConstraints(b, a, here, changes);

  const beforeRequired = new Set<string>(b.required ?? []);
  const afterRequired = new Set<string>(a.required ?? []);
  const beforeProps = (b.properties ?? {}) as Record<string, Json>;
  const afterProps = (a.properties ?? {}) as Record<string, Json>;
  for (const [field, schema] of Object.entries(beforeProps)) {
    const at = { ...here, path: `${here.path}.${field}` };
    const next = afterProps[field];
    if (!next) {
      changes.add(request ? "request-field-removed" : "response-field-removed", at, "field removed");
      continue;
    }
    if (!beforeRequired.has(field) && afterRequired.has(field))
      changes.add(request ? "request-became-required" : "response-became-required", at, "field became required");
    if (beforeRequired.has(field) && !afterRequired.has(field))
      changes.add(request ? "request-became-optional" : "response-became-optional", at, "field became optional");
    compareSchema(schema, next, at, changes);
  }
  for (const field of Object.keys(afterProps)) {
    if (beforeProps[field]) continue;
    const at = { ...here, path: `${here.path}.${field}` };
    if (!request) changes.add("response-field-added", at, "field added");
    else if (afterRequired.has(field)) changes.add("request-required-added", at, "required field added");
    else changes.add("request-optional-added", at, "optional field added");
  }
  if (b.items && a.items) compareSchema(b.items, a.items, { ...here, path: `${here.path}[]` }, changes);
  // Maps: TypeSpec's Record<T> is `unevaluatedProperties: T` in 3.1; hand-written documents use additionalProperties.
  for (const key of ["additionalProperties", "unevaluatedProperties"]) {
    if (isSchema(b[key]) && isSchema(a[key]))
      compareSchema(b[key], a[key], { ...here, path: `${here.path}{}` }, changes);
  }
  const beforeUnion = (b.anyOf ?? b.oneOf) as Json[] | undefined;
  const afterUnion = (a.anyOf ?? a.oneOf) as Json[] | undefined;
  if (beforeUnion && afterUnion) {
    if (beforeUnion.length !== afterUnion.length)
      changes.add("type-changed", here, `union of ${beforeUnion.length} → ${afterUnion.length} members`);
    else {
      for (const [index, member] of beforeUnion.entries())
        compareSchema(member, afterUnion[index]!, { ...here, path: `${here.path}|${index}` }, changes);
    }
  }
}

function isSchema(value: unknown): value is Json {
  return typeof value === "object" && value !== null;
}

function compareEnum(before: unknown[] | undefined, after: unknown[] | undefined, walk: Walk, changes: Changes): void {
  const request = walk.side === "request";
  if (!before && !after) return;
  if (!before) {
    changes.add(
      request ? "request-constraint-tightened" : "response-constraint-changed",
      walk,
      `enum ${JSON.stringify(after)} added`,
    );
    return;
  }
  if (!after) {
    changes.add(
      request ? "request-constraint-loosened" : "response-enum-widened",
      walk,
      "enum removed: any value allowed",
    );
    return;
  }
  for (const value of before.filter((value) => !after.includes(value))) {
    changes.add(
      request ? "request-constraint-tightened" : "response-enum-value-removed",
      walk,
      `enum value ${JSON.stringify(value)} removed`,
    );
  }
  for (const value of after.filter((value) => !before.includes(value))) {
    changes.add(
      request ? "request-enum-widened" : "response-enum-widened",
      walk,
      `enum value ${JSON.stringify(value)} added`,
    );
  }
}

function compareConstraints(before: Json, after: Json, walk: Walk, changes: Changes): void {
  const request = walk.side === "request";
  const report = (tightened: boolean, detail: string) =>
    changes.add(
      request
        ? tightened
          ? "request-constraint-tightened"
          : "request-constraint-loosened"
        : "response-constraint-changed",
      walk,
      detail,
    );
  const show = (value: unknown) => (value === undefined ? "none" : JSON.stringify(value));
  for (const key of [...upperBounds, ...lowerBounds]) {
    const was = before[key] as number | undefined;
    const now = after[key] as number | undefined;
    if (was === now) continue;
    const upper = upperBounds.includes(key);
    // Adding a bound tightens; removing one loosens; otherwise the direction of the number decides.
    const tightened = was === undefined ? true : now === undefined ? false : upper ? now < was : now > was;
    report(tightened, `${key} ${show(was)} → ${show(now)}`);
  }
  for (const key of exactConstraints) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    report(after[key] !== undefined, `${key} ${show(before[key])} → ${show(after[key])}`);
  }
  if (!before.uniqueItems !== !after.uniqueItems)
    report(after.uniqueItems === true, `uniqueItems ${!!before.uniqueItems} → ${!!after.uniqueItems}`);
}

/** The changes found so far; the same change reached through several response statuses is listed once with all of them. */
class Changes {
  private readonly byKey = new Map<string, ContractChange>();

  add(
    rule: RuleId,
    where: { operation: string; side: Side; path: string; schemas?: string[]; statuses?: string[] },
    detail: string,
  ): void {
    const location = [where.operation, where.side === "operation" ? "" : where.side, where.path]
      .filter(Boolean)
      .join(" ");
    const key = `${rule} ${location} ${detail}`;
    const seen = this.byKey.get(key);
    if (seen) {
      for (const status of where.statuses ?? []) if (!seen.statuses.includes(status)) seen.statuses.push(status);
      return;
    }
    this.byKey.set(key, {
      rule,
      severity: rules[rule],
      operation: where.operation,
      side: where.side,
      path: where.path,
      location,
      schemas: where.schemas ?? [],
      detail,
      statuses: [...(where.statuses ?? [])],
    });
  }

  list(): ContractChange[] {
    return [...this.byKey.values()];
  }
}
