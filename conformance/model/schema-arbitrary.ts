/**
 * A fast-check arbitrary of non-null values of a JSON Schema of the contract (D-490): its enum or const, its type, format,
 * pattern, length, bounds and items; every member of an object with properties; a free-form object one or two entries.
 * Strings are letters and digits (what no character rule refuses): the character classes are PROP-TEXT-*'s to judge.
 */
import fc from "fast-check";
import type { SchemaObject } from "../../contract/index.js";
import { bareSchema } from "./request-fields.js";

/** Deeper than any schema of the contract: below it a value is a plain string. */
const maxDepth = 12;

const alphanumeric = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

/** A string of the schema: by its format, its pattern, else letters and digits within its lengths (at least one). */
function stringOf(s: SchemaObject): fc.Arbitrary<string> {
  const minLength = Math.max(s.minLength ?? 1, 1);
  const maxLength = Math.max(Math.min(s.maxLength ?? 16, 16), minLength);
  const text = fc.string({ unit: alphanumeric, minLength, maxLength });
  switch (s.format) {
    case "uuid":
      return fc.uuid({ version: 4 });
    case "uri":
    case "url":
      return fc.string({ unit: alphanumeric, minLength: 1, maxLength: 8 }).map((w) => `https://${w}.example.com/cf`);
    case "date-time":
      return fc
        .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString());
    default:
      return s.pattern
        ? fc
            .stringMatching(new RegExp(s.pattern))
            .filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? v.length))
        : text;
  }
}

/** A number within the schema's bounds: an integer, or for `number` a multiple of one half (exact in every float). */
function numberOf(s: SchemaObject, integer: boolean): fc.Arbitrary<number> {
  const lower = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : (s.minimum ?? 0);
  const upper = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - 1 : (s.maximum ?? lower + 1000);
  const scale = integer ? 1 : 2;
  return fc
    .integer({ min: Math.ceil(lower * scale), max: Math.max(Math.floor(upper * scale), Math.ceil(lower * scale)) })
    .map((n) => n / scale);
}

/** A non-null value of the schema. */
export function arbitraryOf(schema: SchemaObject, depth = 0): fc.Arbitrary<unknown> {
  const s = bareSchema(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum.filter((value) => value !== null));
  const branches = ((s.anyOf ?? s.oneOf ?? []) as SchemaObject[]).filter((b) => b.type !== "null");
  if (branches.length > 0) return fc.oneof(...branches.map((b) => arbitraryOf(b, depth + 1)));
  if (depth > maxDepth) return stringOf({});
  switch (s.type) {
    case "string":
      return stringOf(s);
    case "integer":
    case "number":
      return numberOf(s, s.type === "integer");
    case "boolean":
      return fc.boolean();
    case "array": {
      const items = arbitraryOf((s.items ?? {}) as SchemaObject, depth + 1);
      const minLength = Math.max(s.minItems ?? 1, 1);
      const maxLength = Math.max(Math.min(s.maxItems ?? 2, 2), minLength);
      return s.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, comparator: "IsStrictlyEqual" })
        : fc.array(items, { minLength, maxLength });
    }
    default: {
      if (s.properties)
        return fc.record(
          Object.fromEntries(
            Object.entries(s.properties).map(([name, member]) => [
              name,
              arbitraryOf(member as SchemaObject, depth + 1),
            ]),
          ),
        );
      // a free-form object: its values from additionalProperties (or unevaluatedProperties, JSON Schema 2020-12)
      const { unevaluatedProperties } = s as { unevaluatedProperties?: unknown };
      const values = s.additionalProperties ?? unevaluatedProperties;
      const value = typeof values === "object" ? arbitraryOf(values as SchemaObject, depth + 1) : stringOf({});
      return fc.dictionary(stringOf({ maxLength: 8 }), value, { minKeys: 1, maxKeys: 2 });
    }
  }
}
