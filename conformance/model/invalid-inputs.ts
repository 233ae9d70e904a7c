/** Invalid inputs generated from the contract's request schemas, for the negative property-based checks with fast-check. */
import fc from "fast-check";
import { operation, type SchemaObject } from "../../contract/index.js";

/** What the schema says about one field reachable in a request body. */
interface FieldModel {
  /** Path of keys; numbers are array indexes. */
  path: (string | number)[];
  types: string[];
  nullable: boolean;
  enum?: string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  maxItems?: number;
  /** Whether the parent object requires it. */
  required: boolean;
}

type Schema = Record<string, unknown>;

/** The request body schema of an operation, dereferenced by the operations table. */
function requestSchema(operationId: string): SchemaObject {
  const body = operation(operationId).requestBody;
  if (!body) throw new Error(`${operationId} takes no request body`);
  return body.schema;
}

/** The schema of a parameter of an operation, dereferenced by the operations table. */
export function parameterSchema(operationId: string, name: string): SchemaObject {
  const parameter = operation(operationId).parameters.find((candidate) => candidate.name === name);
  if (!parameter) throw new Error(`${operationId} has no parameter ${name}`);
  return parameter.schema;
}

/** Flattens allOf / anyOf-with-null into one schema plus nullability; sibling keywords win. */
function flatten(schema: Schema): { schema: Schema; nullable: boolean } {
  const { allOf, anyOf, ...own } = schema;
  let nullable = false;
  const merged: Schema = {};
  if (Array.isArray(allOf)) for (const part of allOf as Schema[]) Object.assign(merged, flatten(part).schema);
  if (Array.isArray(anyOf)) {
    const branches = anyOf as Schema[];
    nullable = branches.some((b) => b.type === "null");
    const nonNull = branches.filter((b) => b.type !== "null");
    if (nonNull.length === 1) Object.assign(merged, flatten(nonNull[0]!).schema);
  }
  return { schema: { ...merged, ...own }, nullable };
}

/** Every field reachable in the request body of an operation, to a depth. */
export function fieldsOf(operationId: string, maxDepth = 4): FieldModel[] {
  const out: FieldModel[] = [];
  const visit = (schema: Schema, path: (string | number)[], required: boolean, nullableIn: boolean, depth: number) => {
    const { schema: s, nullable } = flatten(schema);
    const types =
      typeof s.type === "string"
        ? [s.type]
        : Array.isArray(s.type)
          ? (s.type as string[])
          : s.properties
            ? ["object"]
            : [];
    if (path.length > 0)
      out.push({
        path,
        types,
        nullable: nullable || nullableIn,
        enum: s.enum as string[] | undefined,
        maxLength: s.maxLength as number | undefined,
        minLength: s.minLength as number | undefined,
        minimum: s.minimum as number | undefined,
        maximum: s.maximum as number | undefined,
        pattern: s.pattern as string | undefined,
        format: s.format as string | undefined,
        maxItems: s.maxItems as number | undefined,
        required,
      });
    if (depth >= maxDepth) return;
    if (s.properties) {
      const req = new Set((s.required as string[] | undefined) ?? []);
      for (const [k, v] of Object.entries(s.properties as Record<string, Schema>))
        visit(v, [...path, k], req.has(k), false, depth + 1);
    }
    if (s.items) visit(s.items as Schema, [...path, 0], false, false, depth + 1);
  };
  visit(requestSchema(operationId) as Schema, [], true, false, 0);
  return out;
}

/** Values of the wrong JSON type for a field. */
function wrongTypeValues(field: FieldModel): unknown[] {
  const t = field.types[0];
  const candidates: unknown[] =
    t === "string"
      ? [123, true, [], { a: 1 }, 1.5]
      : t === "boolean"
        ? ["true", 1, [], {}, "yes"]
        : t === "integer"
          ? ["1", 1.5, true, [], {}]
          : t === "number"
            ? ["1", true, [], {}]
            : t === "array"
              ? [{}, "x", 1, true]
              : t === "object"
                ? ["x", 1, [], true]
                : [];
  return field.nullable ? candidates : [...candidates, null];
}

/** Values of the right type that break a constraint of the field (enum, length, range, pattern, format). */
function constraintViolations(field: FieldModel): unknown[] {
  const out: unknown[] = [];
  if (field.enum)
    out.push(
      "cf-not-in-enum",
      field.enum[0]!.toUpperCase() === field.enum[0]
        ? `${field.enum[0]!.toLowerCase()}x`
        : field.enum[0]!.toUpperCase(),
    );
  if (field.maxLength !== undefined && field.maxLength < 70_000) out.push("a".repeat(field.maxLength + 1));
  if (field.minLength !== undefined && field.minLength > 0) out.push("");
  if (field.minimum !== undefined) out.push(field.minimum - 1);
  if (field.maximum !== undefined) out.push(field.maximum + 1);
  if (field.pattern) out.push("9-starts-with-digit", "has_underscore", "has space");
  if (field.format === "uuid") out.push("not-a-uuid", "3f1c2a9e5b7d4e2f8a6c1d0e9b8a7c65x", "");
  if (field.format === "uri") out.push("not a uri", "//no-scheme");
  if (field.maxItems !== undefined && field.maxItems <= 200)
    out.push(Array.from({ length: field.maxItems + 1 }, () => ({})));
  return out;
}

/** Sets a value at a path, creating objects and arrays on the way. */
function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const nextIsIndex = typeof path[i + 1] === "number";
    const child = node[key];
    if (child === null || typeof child !== "object") node[key] = nextIsIndex ? [{}] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** Deletes the value at a path (no-op when absent). */
function deleteAt(target: Record<string, unknown>, path: (string | number)[]): void {
  let node: unknown = target;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== "object") return;
    node = (node as Record<string | number, unknown>)[path[i]!];
  }
  if (node !== null && typeof node === "object")
    delete (node as Record<string | number, unknown>)[path[path.length - 1]!];
}

/** One mutation: what it does, for the report, and how. */
export interface Mutation {
  label: string;
  apply(body: Record<string, unknown>): void;
}

/** Mutations that break a rule the interface spec states: a missing required field or a value outside a stated enum. */
export function specMutations(operationId: string, enumFields: string[]): fc.Arbitrary<Mutation> {
  const fields = fieldsOf(operationId, 1);
  const missing = fields
    .filter((f) => f.required)
    .map((f) => ({ label: `without ${f.path.join(".")}`, apply: (b: Record<string, unknown>) => deleteAt(b, f.path) }));
  const enums = fields
    .filter((f) => enumFields.includes(String(f.path[0])))
    .map((f) =>
      fc
        .string({ minLength: 1, maxLength: 12 })
        // a plain lowercase word could be one of the vendor names provider_type takes (placeholders in the interface
        // spec, D-57): only values no enum of lowercase names can hold are outside it at MUST (D-180)
        .filter((v) => !f.enum!.includes(v) && !/^[a-z0-9_]+$/.test(v))
        .map((v) => ({
          label: `${f.path.join(".")}=${JSON.stringify(v)} (outside the enum)`,
          apply: (b: Record<string, unknown>) => setAt(b, f.path, v),
        })),
    );
  return fc.oneof(fc.constantFrom(...missing), ...enums);
}

/** Mutations that break the schema anywhere in the body: wrong types, constraint violations, missing nested required fields. */
export function schemaMutations(operationId: string): fc.Arbitrary<Mutation> {
  const fields = fieldsOf(operationId);
  const all: Mutation[] = [];
  for (const f of fields) {
    const where = f.path.join(".");
    for (const v of wrongTypeValues(f))
      all.push({ label: `${where}=${JSON.stringify(v)} (wrong type)`, apply: (b) => setAt(b, f.path, v) });
    for (const v of constraintViolations(f))
      all.push({
        label: `${where}=${JSON.stringify(v).slice(0, 40)} (breaks a constraint)`,
        apply: (b) => setAt(b, f.path, v),
      });
  }
  return fc.constantFrom(...all);
}
