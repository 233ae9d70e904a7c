import { describe, expect, it } from "vitest";
import type { SchemaObject } from "../../contract/index.js";
import { allowedTypes, spreadSample, valueAt, type WrongKind, withWrongType, wrongTypeCases } from "./wrong-types.js";

/** The cases of a schema as `path kind value` lines. */
const lines = (schema: SchemaObject) =>
  wrongTypeCases(schema).map((c) => `${c.path} ${c.kind} ${JSON.stringify(c.value)}`);

describe("wrongTypeCases", () => {
  const cases: { name: string; given: SchemaObject; want: string[] }[] = [
    {
      name: "a boolean gets text, number-like text, a number, null, an array and an object",
      given: { type: "object", properties: { flag: { type: "boolean" } } },
      want: [
        'flag string "true"',
        'flag integer-as-text "1"',
        "flag number 1",
        "flag null null",
        'flag array ["x"]',
        "flag object {}",
      ],
    },
    {
      name: "an integer gets no number, and a nullable string no null",
      given: {
        type: "object",
        properties: {
          n: { type: "integer", minimum: 0 },
          s: { anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] },
        },
      },
      want: [
        'n string "x"',
        'n integer-as-text "1"',
        "n boolean true",
        "n null null",
        'n array ["x"]',
        "n object {}",
        "s number 1",
        "s boolean true",
        's array ["x"]',
        "s object {}",
      ],
    },
    {
      name: "an enum allows the types of its values",
      given: { type: "object", properties: { e: { enum: ["a", null] } } },
      want: ["e number 1", "e boolean true", 'e array ["x"]', "e object {}"],
    },
    {
      name: "members of an array's objects are walked, without null below the top level; a free-form object's are not",
      given: {
        type: "object",
        properties: {
          items: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
          labels: { type: "object", additionalProperties: { type: "string" } },
        },
      },
      want: [
        'items string "x"',
        'items integer-as-text "1"',
        "items number 1",
        "items boolean true",
        "items null null",
        "items object {}",
        "items.name number 1",
        "items.name boolean true",
        'items.name array ["x"]',
        "items.name object {}",
        'labels string "x"',
        'labels integer-as-text "1"',
        "labels number 1",
        "labels boolean true",
        "labels null null",
        'labels array ["x"]',
      ],
    },
    {
      name: "a member whose schema allows any value has no case",
      given: { type: "object", properties: { any: {} } },
      want: [],
    },
  ];
  for (const { name, given, want } of cases)
    it(name, () => {
      expect(lines(given)).toEqual(want);
    });
});

describe("allowedTypes", () => {
  it.each([
    { given: { type: "integer" }, want: ["number"] },
    { given: { type: ["string", "null"] }, want: ["string", "null"] },
    { given: { allOf: [{ type: "boolean" }] }, want: ["boolean"] },
    { given: { type: "string", nullable: true }, want: ["string", "null"] },
    { given: {}, want: undefined },
  ] as { given: SchemaObject; want: string[] | undefined }[])("$given", ({ given, want }) => {
    const got = allowedTypes(given);
    expect(got && [...got]).toEqual(want);
  });
});

describe("withWrongType and valueAt", () => {
  const schema: SchemaObject = {
    type: "object",
    properties: {
      flag: { type: "boolean" },
      secrets: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
    },
  };
  const find = (path: string, kind: string) => wrongTypeCases(schema).find((c) => c.path === path && c.kind === kind)!;
  const cases: { name: string; body: Record<string, unknown>; path: string; kind: string; want: unknown }[] = [
    { name: "a held member is replaced", body: { flag: false }, path: "flag", kind: "string", want: { flag: "true" } },
    { name: "an absent member is not placed", body: {}, path: "flag", kind: "string", want: undefined },
    { name: "a null member is not placed", body: { flag: null }, path: "flag", kind: "number", want: undefined },
    {
      name: "an array's first item takes it",
      body: { secrets: [{ name: "A" }, { name: "B" }] },
      path: "secrets.name",
      kind: "number",
      want: { secrets: [{ name: 1 }, { name: "B" }] },
    },
    {
      name: "an empty array holds nothing",
      body: { secrets: [] },
      path: "secrets.name",
      kind: "number",
      want: undefined,
    },
  ];
  for (const { name, body, path, kind, want } of cases)
    it(name, () => {
      const wrong = find(path, kind);
      const got = withWrongType(body, wrong);
      expect(got).toEqual(want);
      if (got) expect(valueAt(got, wrong.keys)).toEqual(wrong.value);
    });
});

describe("spreadSample", () => {
  const item = (kind: WrongKind, allows: string, path: string) => ({
    wrong: { keys: [path], path, kind, value: null, allows },
  });
  const order = [
    item("number", "string", "a"),
    item("number", "string", "b"),
    item("number", "string", "c"),
    item("string", "boolean", "flag"),
    item("integer-as-text", "number", "n"),
  ];
  const cases: { name: string; count: number; want: string[] }[] = [
    { name: "one of each group first", count: 3, want: ["a", "flag", "n"] },
    { name: "then the groups' next ones", count: 4, want: ["a", "flag", "n", "b"] },
    { name: "no more than there are", count: 9, want: ["a", "flag", "n", "b", "c"] },
  ];
  for (const { name, count, want } of cases)
    it(name, () => {
      expect(spreadSample(order, count).map((i) => i.wrong.path)).toEqual(want);
    });
});
