/**
 * A resource spec holding every field the contract lists, walked from the create body's schema so a field added to
 * the contract is sent too: each value inside its bounds and D-134's relations (a request below its limit, a minimum
 * below its maximum), cpu to one decimal (D-04) that no 32-bit float holds exactly. Free-form objects (labels,
 * annotations, volume sources, container resources and security context), whose inner fields the interface spec does
 * not show, are filled only when asked. Two edge sets: every field at its zero (0, false, "", empty arrays and
 * objects), and every integer beyond 32 bits.
 */
import { operation, type SchemaObject } from "../../contract/index.js";

type Json = Record<string, unknown>;

/** The schema without its nullable and single-`allOf` wrappers. */
function bare(schema: SchemaObject): SchemaObject {
  if (schema.allOf?.length === 1) return bare(schema.allOf[0] as SchemaObject);
  const branch = schema.anyOf?.find((s) => (s as SchemaObject).type !== "null");
  return branch ? bare(branch as SchemaObject) : schema;
}

/** A free-form object's content: keys in mixed case and with the dots and slashes of label keys, nested values. */
const freeFormContent: Json = { "App.Example.com/Name": "Mixed-Case Value", team: "Cf", Nested: { Depth: [1, "two"] } };
/**
 * The same for a free-form object whose values are strings (labels, annotations), some that read as other types, with
 * 40 keys in all: a store that keeps only the first few (16, 32) is seen.
 */
const freeFormText: Json = {
  "App.Example.com/Name": "Mixed-Case Value",
  team: "Cf",
  enabled: "true",
  replicas: "007",
  ...Object.fromEntries(Array.from({ length: 36 }, (_, i) => [`cf-key-${String(i).padStart(2, "0")}`, `value-${i}`])),
};

/**
 * Which values the fields take: `middle` (inside every bound), `zero` (each field at its zero, every array and
 * free-form object empty), `wide` (as `middle`, but every integer is 2^32 + 5: a 32-bit store keeps 5).
 */
export type ValueSet = "middle" | "zero" | "wide";

/** The integer `wide` sends: beyond every 32-bit integer, signed or not, and exact in a double. */
export const wideInteger = 2 ** 32 + 5;

/** A value of `schema` for the member `name`, or undefined when it is free-form content left out. */
function sampleOf(name: string, schema: SchemaObject, freeForm: boolean, values: ValueSet): unknown {
  const s = bare(schema);
  const bounded = (value: number) => Math.min(value, s.maximum ?? value);
  const upper = /limit|max/.test(name);
  const zero = values === "zero";
  switch (s.type) {
    case "integer":
      return zero ? 0 : values === "wide" ? wideInteger : bounded(upper ? 8 : 4);
    case "number":
      // 0.3 and 1.7 are stored as sent only by a double or a decimal column (a float4 one keeps 0.30000001)
      return zero ? 0 : bounded(upper ? 1.7 : 0.3);
    case "boolean":
      return !zero;
    case "string":
      return zero ? "" : name === "image" ? "registry.example.com/conformance/side:1.0.0" : `Cf-${name}`;
    case "array": {
      if (zero) return [];
      const item = sampleOf(name, s.items as SchemaObject, freeForm, values);
      return item === undefined ? undefined : oneSourceEach(s.items as SchemaObject, item);
    }
    default: {
      if (!s.properties) {
        if (zero) return {};
        if (!freeForm) return undefined;
        // the contract writes a map's values as unevaluatedProperties (JSON Schema 2020-12), or additionalProperties
        const { unevaluatedProperties } = s as { unevaluatedProperties?: unknown };
        const values = bare((s.additionalProperties ?? unevaluatedProperties ?? {}) as SchemaObject);
        return values.type === "string" ? freeFormText : freeFormContent;
      }
      const entries = Object.entries(s.properties)
        .map(([key, member]) => [key, sampleOf(key, member as SchemaObject, freeForm, values)] as const)
        .filter(([, value]) => value !== undefined);
      return entries.length > 0 ? Object.fromEntries(entries) : undefined;
    }
  }
}

/** Whether a value is a JSON object (not an array). */
const isMap = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The items of an array whose item schema holds several free-form objects, each item with one of them: a volume
 * takes one source object (the contract's Volume: "exactly one source object is meant to be set").
 */
function oneSourceEach(itemSchema: SchemaObject, item: unknown): unknown[] {
  const { properties } = bare(itemSchema);
  if (!properties || !isMap(item)) return [item];
  const sources = Object.keys(item).filter(
    (key) => !bare(properties[key] as SchemaObject).properties && isMap(item[key]),
  );
  if (sources.length < 2) return [item];
  const rest = Object.fromEntries(Object.entries(item).filter(([key]) => !sources.includes(key)));
  return sources.map((source, i) => ({
    ...rest,
    ...(typeof rest.name === "string" ? { name: `${rest.name}-${i}` } : {}),
    [source]: item[source],
  }));
}

/** The create body's resource spec schema (source_config.resource_spec), without its nullable wrapper. */
export function resourceSpecSchema(): SchemaObject {
  const body = operation("createDeployment").requestBody?.schema as SchemaObject;
  const config = bare(body.properties?.source_config as SchemaObject);
  return bare(config.properties?.resource_spec as SchemaObject);
}

/** Every field of a resource spec, free-form content included or not, from one value set. */
export function fullResourceSpec(freeForm: boolean, values: ValueSet = "middle"): Json {
  return sampleOf("resource_spec", resourceSpecSchema(), freeForm, values) as Json;
}
