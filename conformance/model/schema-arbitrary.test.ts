/** Values drawn from a schema hold its type, enum, format, lengths, bounds and members, and are never null. */
import fc from "fast-check";
import { describe, it } from "vitest";
import type { SchemaObject } from "../../contract/index.js";
import { arbitraryOf } from "./schema-arbitrary.js";

const isText = (v: unknown): v is string => typeof v === "string";

describe("arbitraryOf", () => {
  it.each<{ given: SchemaObject; want: (v: unknown) => boolean }>([
    { given: { type: "string" }, want: (v) => isText(v) && v.length >= 1 && v.length <= 16 },
    { given: { type: "string", minLength: 3, maxLength: 4 }, want: (v) => isText(v) && v.length >= 3 && v.length <= 4 },
    { given: { anyOf: [{ type: "string", maxLength: 2 }, { type: "null" }] }, want: (v) => isText(v) && v.length <= 2 },
    { given: { type: "string", format: "uuid" }, want: (v) => isText(v) && /^[0-9a-f-]{36}$/.test(v) },
    { given: { type: "string", format: "uri" }, want: (v) => isText(v) && v.startsWith("https://") },
    { given: { type: "string", pattern: "^[a-z]{2}$" }, want: (v) => isText(v) && /^[a-z]{2}$/.test(v) },
    { given: { type: "string", enum: ["a", "b", null] }, want: (v) => v === "a" || v === "b" },
    {
      given: { type: "integer", minimum: 1, maximum: 3 },
      want: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 3,
    },
    { given: { type: "number", minimum: 0, maximum: 1 }, want: (v) => [0, 0.5, 1].includes(v as number) },
    { given: { type: "boolean" }, want: (v) => typeof v === "boolean" },
    {
      given: { type: "array", items: { type: "boolean" }, maxItems: 1 },
      want: (v) => Array.isArray(v) && v.length === 1,
    },
    {
      given: { type: "object", properties: { a: { type: "integer" }, b: { allOf: [{ type: "string" }] } } },
      want: (v) => Object.keys(v as object).join() === "a,b",
    },
    {
      given: { type: "object", additionalProperties: { type: "integer" } },
      want: (v) => Object.values(v as object).length >= 1 && Object.values(v as object).every(Number.isInteger),
    },
  ])("$given", ({ given, want }) => {
    fc.assert(
      fc.property(arbitraryOf(given), (value) => want(value)),
      { numRuns: 50, seed: 1 },
    );
  });
});
