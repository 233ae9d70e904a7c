/**
 * The wrong-type cases of a request schema (D-500): for every body member at any depth, each JSON type its schema
 * excludes, with a value of that type to send in place of a valid one. A free-form object's inner members are not walked.
 */
import type { SchemaObject } from "../../contract/index.js";
import { bareSchema } from "./request-fields.js";

/** The JSON kinds a case sends: `integer-as-text` is `"1"`, a number written as a string. */
export type WrongKind = "string" | "number" | "integer-as-text" | "boolean" | "null" | "array" | "object";

/** One case: the member (keys from the body's root, `[]` for an array's items), the kind sent and its value. */
export interface WrongTypeCase {
  keys: (string | "[]")[];
  path: string;
  kind: WrongKind;
  value: unknown;
  /** The non-null JSON types the member's schema allows, as `boolean` or `number|string`. */
  allows: string;
}

type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

/** Deeper than any schema of the contract: a bound on the walk. */
const maxDepth = 12;

/** The JSON type of a value. */
function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonType;
}

/** The JSON types a schema allows (integer counts as number); undefined when it allows any. */
export function allowedTypes(schema: SchemaObject): Set<JsonType> | undefined {
  const types = new Set<JsonType>();
  const visit = (s: SchemaObject): boolean => {
    if (s.const !== undefined) types.add(typeOf(s.const));
    else if (s.enum) for (const value of s.enum) types.add(typeOf(value));
    else if (s.allOf?.length) return s.allOf.every((b) => visit(b as SchemaObject));
    else if (s.anyOf || s.oneOf) return ((s.anyOf ?? s.oneOf) as SchemaObject[]).every(visit);
    else if (s.type !== undefined) {
      for (const t of Array.isArray(s.type) ? s.type : [s.type])
        types.add(t === "integer" ? "number" : (t as JsonType));
    } else if (s.properties || s.additionalProperties) types.add("object");
    else if (s.items) types.add("array");
    else return false;
    if ((s as { nullable?: boolean }).nullable === true) types.add("null");
    return true;
  };
  return visit(schema) ? types : undefined;
}

/** The value each kind is sent as; a string in place of a boolean reads `"true"`, the text a lenient parser turns into one. */
function sentValue(kind: WrongKind, allowed: Set<JsonType>): unknown {
  switch (kind) {
    case "string":
      return allowed.has("boolean") ? "true" : "x";
    case "integer-as-text":
      return "1";
    case "number":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return ["x"];
    case "object":
      return {};
  }
}

/**
 * The kinds a set of allowed types excludes: the two string kinds when strings are excluded, each other type likewise.
 * `null` only for a member of the body's top level: below it the interface spec leaves nullability open (its tables
 * make the source objects' fields nullable, and a legal reading carries that to their inner objects, D-500).
 */
function excludedKinds(allowed: Set<JsonType>, topLevel: boolean): WrongKind[] {
  const kinds: WrongKind[] = [];
  if (!allowed.has("string")) kinds.push("string", "integer-as-text");
  for (const t of ["number", "boolean", "null", "array", "object"] as const)
    if (!allowed.has(t) && (t !== "null" || topLevel)) kinds.push(t);
  return kinds;
}

/** Every wrong-type case of a body schema, members in declaration order, kinds in a fixed order. */
export function wrongTypeCases(schema: SchemaObject, keys: (string | "[]")[] = [], depth = 0): WrongTypeCase[] {
  const s = bareSchema(schema);
  if (depth > maxDepth) return [];
  if (s.type === "array" && s.items) return wrongTypeCases(s.items as SchemaObject, [...keys, "[]"], depth + 1);
  if (!s.properties) return [];
  return Object.entries(s.properties).flatMap(([name, member]) => {
    const memberKeys = [...keys, name];
    const allowed = allowedTypes(member as SchemaObject);
    const own = allowed
      ? excludedKinds(allowed, keys.length === 0).map(
          (kind): WrongTypeCase => ({
            keys: memberKeys,
            path: pathOf(memberKeys),
            kind,
            value: sentValue(kind, allowed),
            allows: [...allowed]
              .filter((t) => t !== "null")
              .sort()
              .join("|"),
          }),
        )
      : [];
    return [...own, ...wrongTypeCases(member as SchemaObject, memberKeys, depth + 1)];
  });
}

/** The dotted path of a member (`secrets.name` for a member of an array's items). */
function pathOf(keys: readonly (string | "[]")[]): string {
  return keys.filter((key) => key !== "[]").join(".");
}

/**
 * A copy of `body` with the case's member set to its value, the member replacing a non-null one the body holds
 * (through an array, its first item); undefined when the body holds no value there.
 */
export function withWrongType(
  body: Record<string, unknown>,
  wrong: WrongTypeCase,
): Record<string, unknown> | undefined {
  const copy = structuredClone(body);
  let target: unknown = copy;
  for (const key of wrong.keys.slice(0, -1)) {
    const next: unknown =
      key === "[]"
        ? Array.isArray(target)
          ? target[0]
          : undefined
        : target !== null && typeof target === "object" && !Array.isArray(target)
          ? (target as Record<string, unknown>)[key]
          : undefined;
    if (next === null || typeof next !== "object") return undefined;
    target = next;
  }
  const last = wrong.keys.at(-1)!;
  if (last === "[]" || Array.isArray(target)) return undefined;
  const holder = target as Record<string, unknown>;
  if (holder[last] === undefined || holder[last] === null) return undefined;
  holder[last] = wrong.value;
  return copy;
}

/** The value at a case's member in an answer (through an array, its first item), for the failure's message. */
export function valueAt(answer: unknown, keys: readonly (string | "[]")[]): unknown {
  let target: unknown = answer;
  for (const key of keys) {
    if (target === null || typeof target !== "object") return undefined;
    target = key === "[]" ? (Array.isArray(target) ? target[0] : undefined) : (target as Record<string, unknown>)[key];
  }
  return target;
}

/**
 * `count` of the cases, taken in turn from each group of one kind sent in place of one allowed type (text for a
 * boolean, an array for a string...), so every group is met on every run; `order` is the cases shuffled from the seed.
 */
export function spreadSample<T extends { wrong: WrongTypeCase }>(order: readonly T[], count: number): T[] {
  const groups = new Map<string, T[]>();
  for (const item of order) {
    const key = `${item.wrong.kind}>${item.wrong.allows}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const queues = [...groups.values()];
  const taken: T[] = [];
  for (let round = 0; taken.length < Math.min(count, order.length); round += 1)
    for (const queue of queues) if (round < queue.length && taken.length < count) taken.push(queue[round]!);
  return taken;
}
