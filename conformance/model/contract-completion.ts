/**
 * Completes a hand-written generator's requests from the contract (D-490): each member the request schema declares
 * that the generator never sends with a non-null value (found by sampling it) is added with a value drawn from its
 * schema, where the caller's rule allows it (the field's level, the per-source table). A field added to the
 * contract later is sent with no edit here.
 */
import fc from "fast-check";
import type { SchemaObject } from "../../contract/index.js";
import { bareSchema, sentBodyFields } from "./request-fields.js";
import { arbitraryOf } from "./schema-arbitrary.js";

type Json = Record<string, unknown>;

/** A request as generated, with the members the completion added (paths as `a.b`). */
export interface Completed {
  body: Json;
  added: string[];
}

/** What a completion needs: the request's schema, which fields it may add, and how requests group for the sampling. */
export interface CompletionRules {
  schema: SchemaObject;
  /** Whether the member at `path` may be added to `body` (its level, the per-source rule, another check's subtree). */
  may: (path: string, body: Json) => boolean;
  /** Requests of one group share what the generator sends (a deployment's source); one group when unset. */
  groupOf?: (body: Json) => string;
  /** Add only members the generator never writes at all: one it sends only as null holds a value it leaves out on purpose. */
  absentOnly?: boolean;
}

/** Draws per group, enough that a member the generator sends one time in ten is seen (fixed seed: the same each run). */
const samples = 200;

/** One place to add a member: its keys from the body's root, its path and its schema. */
interface Slot {
  keys: (string | number)[];
  path: string;
  schema: SchemaObject;
}

/** The member paths of `value` (with `present` also those sent as null). */
function pathsOf(value: unknown, present: boolean, prefix = ""): string[] {
  if (!present) return sentBodyFields(value);
  if (Array.isArray(value)) return value.flatMap((item) => pathsOf(item, true, prefix));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([name, member]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return member === undefined ? [] : [path, ...pathsOf(member, true, path)];
  });
}

/** The places in `value` (at `schema`) where a member is absent or null, never generated, and allowed by the rules. */
function slotsOf(
  value: unknown,
  schema: SchemaObject,
  keys: (string | number)[],
  prefix: string,
  skip: (path: string) => boolean,
): Slot[] {
  const s = bareSchema(schema);
  if (Array.isArray(value))
    return s.items
      ? value.flatMap((item, i) => slotsOf(item, s.items as SchemaObject, [...keys, i], prefix, skip))
      : [];
  if (value === null || typeof value !== "object" || !s.properties) return [];
  const object = value as Json;
  return Object.entries(s.properties).flatMap(([name, member]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const inner = object[name];
    if (inner === undefined || inner === null)
      return skip(path) ? [] : [{ keys: [...keys, name], path, schema: member as SchemaObject }];
    return slotsOf(inner, member as SchemaObject, [...keys, name], path, skip);
  });
}

/** A copy of `body` with each slot's value set. */
function filled(body: Json, slots: readonly Slot[], values: readonly unknown[]): Json {
  const copy = structuredClone(body);
  slots.forEach((slot, i) => {
    let target = copy as Record<string | number, unknown>;
    for (const key of slot.keys.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
    target[slot.keys.at(-1)!] = values[i];
  });
  return copy;
}

/** The generator's requests, each completed with a value for every member it never sends that the rules allow. */
export function completed(arbitrary: fc.Arbitrary<Json>, rules: CompletionRules): fc.Arbitrary<Completed> {
  const groupOf = rules.groupOf ?? (() => "");
  const generated = new Map<string, Set<string>>();
  for (const body of fc.sample(arbitrary, { numRuns: samples, seed: 0 })) {
    const group = generated.get(groupOf(body)) ?? new Set<string>();
    for (const path of pathsOf(body, rules.absentOnly === true)) group.add(path);
    generated.set(groupOf(body), group);
  }
  return arbitrary.chain((body) => {
    const seen = generated.get(groupOf(body)) ?? new Set<string>();
    const slots = slotsOf(body, rules.schema, [], "", (path) => seen.has(path) || !rules.may(path, body));
    if (slots.length === 0) return fc.constant({ body, added: [] });
    return fc
      .tuple(...slots.map((slot) => arbitraryOf(slot.schema)))
      .map((values) => ({ body: filled(body, slots, values), added: slots.map((slot) => slot.path) }));
  });
}
