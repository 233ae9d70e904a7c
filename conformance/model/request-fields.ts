/**
 * The fields a request can carry, walked from the contract (every body member, nested ones as `a.b`, and every query
 * parameter as `query.name`), and the fields one request sent with a non-null value, named the same way (D-490).
 */
import type { ContractOperation, SchemaObject } from "../../contract/index.js";

/** The schema without its single-`allOf` wrapper and its `null` branch. */
export function bareSchema(schema: SchemaObject): SchemaObject {
  if (schema.allOf?.length === 1) return bareSchema(schema.allOf[0] as SchemaObject);
  const branches = (schema.anyOf ?? schema.oneOf ?? []) as SchemaObject[];
  const nonNull = branches.filter((s) => s.type !== "null");
  return nonNull.length === 1 ? bareSchema(nonNull[0]!) : schema;
}

/** Deeper than any schema of the contract: a bound on the walk, were a schema ever to name itself. */
const maxDepth = 12;

/** The member paths of a body schema: each property, then those of an object (or array of objects) below it. */
export function bodyFields(schema: SchemaObject, prefix = "", depth = 0): string[] {
  const s = bareSchema(schema);
  const inner = s.type === "array" && s.items ? bareSchema(s.items as SchemaObject) : s;
  if (!inner.properties || depth > maxDepth) return [];
  return Object.entries(inner.properties).flatMap(([name, member]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return [path, ...bodyFields(member as SchemaObject, path, depth + 1)];
  });
}

/** Every field a request of the operation can carry: its body members and its query parameters. */
export function requestFields(op: Pick<ContractOperation, "parameters" | "requestBody">): string[] {
  const body = op.requestBody ? bodyFields(op.requestBody.schema) : [];
  return [...body, ...op.parameters.filter((p) => p.in === "query").map((p) => `query.${p.name}`)];
}

/**
 * The member paths of a JSON value that hold a non-null value (array items named as their array's members), each once;
 * no deeper than any schema of the contract, so a body nested thousands deep costs no more than one that is not.
 */
export function sentBodyFields(value: unknown): string[] {
  const paths = new Set<string>();
  const walk = (member: unknown, prefix: string, depth: number): void => {
    if (depth > maxDepth || member === null || typeof member !== "object") return;
    if (Array.isArray(member)) {
      for (const item of member) walk(item, prefix, depth + 1);
      return;
    }
    for (const [name, inner] of Object.entries(member)) {
      if (inner === null || inner === undefined) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      paths.add(path);
      walk(inner, path, depth + 1);
    }
  };
  walk(value, "", 0);
  return [...paths];
}

/** The query parameters a request sent with a value, from its query object, a query string, or its path's query. */
export function sentQueryFields(path: string, query: Record<string, unknown> | string | undefined): string[] {
  const names = new Set<string>();
  const fromString = (text: string) => {
    for (const [name, value] of new URLSearchParams(text)) if (value !== "") names.add(name);
  };
  const inPath = path.indexOf("?");
  if (inPath >= 0) fromString(path.slice(inPath + 1));
  if (typeof query === "string") fromString(query.startsWith("?") ? query.slice(1) : query);
  else
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) names.add(name);
  return [...names].map((name) => `query.${name}`);
}
