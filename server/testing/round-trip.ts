/**
 * What the round-trip test derives from the contract (D-400): the operations that create, a body of each with every
 * field the contract allows for a source, and the fields of that body the contract says come back.
 */
import type { SchemaObject } from "../../contract/document.js";
import { type ContractOperation, operationList } from "../../contract/operations.js";
import type { DeploymentSource } from "../../contract/schemas.js";
import { sourceFields } from "../../contract/source-rules.js";

/** An operation that creates (a POST with a body) and the GET of the same path that lists what it created. */
interface CreateAndList {
  create: ContractOperation;
  list: ContractOperation;
}

/** Every creating operation of the contract with its list operation. */
export function createOperations(): CreateAndList[] {
  return operationList
    .filter((op) => op.method === "post" && op.requestBody)
    .map((create) => {
      const list = operationList.find((op) => op.method === "get" && op.path === create.path);
      if (!list) throw new Error(`${create.id} has no GET on ${create.path} to list what it created`);
      return { create, list };
    });
}

/** The created record's schema: the success body's (an array's items, or the items of its `resources`). */
export function itemsOf(schema: SchemaObject): SchemaObject {
  if (schema.type === "array") return schema.items as SchemaObject;
  const resources = schema.properties?.resources as SchemaObject | undefined;
  if (resources?.type === "array") return resources.items as SchemaObject;
  return schema;
}

/** The branches a value of this schema may take, `null` left out (a nullable field is given its value). */
function nonNullBranch(schema: SchemaObject): SchemaObject {
  const branches = (schema.anyOf ?? schema.oneOf) as SchemaObject[] | undefined;
  if (branches) return nonNullBranch(branches.find((branch) => branch.type !== "null") ?? branches[0]!);
  if (schema.allOf) {
    const { allOf, ...outer } = schema;
    return nonNullBranch(Object.assign({}, ...(allOf as SchemaObject[]).map(nonNullBranch), outer));
  }
  return schema;
}

/** The object properties of a schema, through its branches. */
export function propertiesOf(schema: SchemaObject): Record<string, SchemaObject> {
  return (nonNullBranch(schema).properties ?? {}) as Record<string, SchemaObject>;
}

const candidates = ["rt", "round-trip", "rt1", "a", "A", "1"];

/** A value the schema accepts and that differs from its default; `at` names the field when none can be made. */
function sampleValue(schema: SchemaObject, at: string): unknown {
  const branch = nonNullBranch(schema);
  if (branch.const !== undefined) return branch.const;
  if (Array.isArray(branch.enum)) return branch.enum.find((value) => value !== branch.default) ?? branch.enum[0];
  switch (branch.type) {
    case "boolean":
      return branch.default !== true;
    case "integer":
    case "number":
      return branch.minimum ?? ((branch.exclusiveMinimum as number | undefined) ?? 0) + 1;
    case "array":
      return Array.from({ length: Math.max(1, branch.minItems ?? 1) }, (_, i) =>
        sampleValue(branch.items as SchemaObject, `${at}/${i}`),
      );
    case "object":
      return Object.fromEntries(
        Object.entries(propertiesOf(branch)).map(([name, property]) => [name, sampleValue(property, `${at}/${name}`)]),
      );
    case "string": {
      if (branch.format === "uuid") return "00000000-0000-4000-8000-00000000040a";
      if (branch.format === "date-time") return "2026-01-02T03:04:05.678Z";
      const pattern = branch.pattern ? new RegExp(branch.pattern, "u") : undefined;
      const fits = (value: string) =>
        value.length >= (branch.minLength ?? 0) &&
        value.length <= (branch.maxLength ?? Number.POSITIVE_INFINITY) &&
        (!pattern || pattern.test(value));
      const value = candidates.find(fits);
      if (value !== undefined) return value;
      throw new Error(`round trip: no value for ${at} (pattern ${branch.pattern}); give it a sample in the test`);
    }
    default:
      throw new Error(`round trip: no value for ${at} (type ${String(branch.type)})`);
  }
}

/**
 * A create body with every field the contract allows: the example's values (with the operation's example of the
 * same source, when it has one), then every optional field it lacks, from the source rules' samples (D-200) or made
 * from its schema; fields the source forbids (D-48) are left out.
 */
export function fullBody(
  create: ContractOperation,
  base: Record<string, unknown>,
  source?: DeploymentSource,
): Record<string, unknown> {
  const schema = create.requestBody?.schema as SchemaObject;
  const ruled = new Map(sourceFields.map((field) => [field.field, field]));
  const fill = (target: Record<string, unknown>, properties: Record<string, SchemaObject>, prefix: string) => {
    for (const [name, property] of Object.entries(properties)) {
      const field = `${prefix}${name}`;
      const rule = source && ruled.get(field);
      if (rule && rule.rules[source] === "F") {
        delete target[name];
        continue;
      }
      const nested = propertiesOf(property);
      const isConfig = source && sourceFields.some((f) => f.field.startsWith(`${field}.`));
      if (isConfig && Object.keys(nested).length > 0) {
        const inner = { ...((target[name] as Record<string, unknown> | undefined) ?? {}) };
        fill(inner, nested, `${field}.`);
        target[name] = inner;
        continue;
      }
      if (target[name] !== undefined) continue;
      target[name] = rule ? rule.sample : sampleValue(property, `/${field.replaceAll(".", "/")}`);
    }
  };
  const body = structuredClone(base);
  fill(body, propertiesOf(schema), "");
  return body;
}

/** The fields of a body that the created record's schema has too: dotted paths down to the leaves both schemas describe. */
export function returnedFields(
  body: Record<string, unknown>,
  request: SchemaObject,
  response: SchemaObject,
  prefix = "",
): string[] {
  const requested = propertiesOf(request);
  const answered = propertiesOf(response);
  return Object.keys(body).flatMap((name) => {
    if (!(name in requested) || !(name in answered)) return [];
    const field = `${prefix}${name}`;
    const value = body[name];
    const deeper =
      Object.keys(propertiesOf(requested[name]!)).length > 0 && Object.keys(propertiesOf(answered[name]!)).length > 0;
    if (deeper && value && typeof value === "object" && !Array.isArray(value))
      return returnedFields(value as Record<string, unknown>, requested[name]!, answered[name]!, `${field}.`);
    return [field];
  });
}

/** The fields of the request schema left out of `body` that carry a default, with it (a `default` of the contract). */
export function defaultedFields(body: Record<string, unknown>, request: SchemaObject): Array<[string, unknown]> {
  return Object.entries(propertiesOf(request))
    .filter(([name, property]) => body[name] === undefined && nonNullBranch(property).default !== undefined)
    .map(([name, property]) => [name, nonNullBranch(property).default]);
}
