/** The fields a request can carry, walked from a schema, and those a request sent non-null, named alike. */
import { describe, expect, it } from "vitest";
import type { SchemaObject } from "../../contract/index.js";
import { bodyFields, requestFields, sentBodyFields, sentQueryFields } from "./request-fields.js";

const schema: SchemaObject = {
  type: "object",
  properties: {
    name: { type: "string" },
    config: {
      anyOf: [
        { type: "object", properties: { url: { type: "string" }, labels: { type: "object" } } },
        { type: "null" },
      ],
    },
    items: { type: "array", items: { allOf: [{ type: "object", properties: { key: { type: "string" } } }] } },
  },
};

describe("bodyFields", () => {
  it("names every member, nested ones by their path, array items by their array's", () => {
    expect(bodyFields(schema)).toEqual(["name", "config", "config.url", "config.labels", "items", "items.key"]);
  });
});

describe("requestFields", () => {
  it("adds the query parameters, not the path ones", () => {
    const parameters = [
      { name: "limit", in: "query", required: false, explode: false, schema: {} },
      { name: "id", in: "path", required: true, explode: false, schema: {} },
    ] as const;
    expect(requestFields({ parameters: [...parameters] })).toEqual(["query.limit"]);
  });
});

describe("sentBodyFields", () => {
  it.each([
    { given: { name: "a", config: null }, want: ["name"] },
    {
      given: { config: { url: "u", labels: { k: "v" } } },
      want: ["config", "config.url", "config.labels", "config.labels.k"],
    },
    { given: { items: [{ key: null }, { key: "k" }] }, want: ["items", "items.key"] },
    { given: { items: [] }, want: ["items"] },
    { given: "text", want: [] },
  ])("$given", ({ given, want }) => {
    expect(sentBodyFields(given)).toEqual(want);
  });

  it("stops below the contract's depth, so a body nested 100,000 deep is walked without overflow", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i += 1) deep = { a: deep };
    expect(sentBodyFields(deep)).toHaveLength(13);
  });
});

describe("sentQueryFields", () => {
  it.each([
    { path: "/v2/deployments", query: { limit: 2, offset: undefined }, want: ["query.limit"] },
    { path: "/v2/deployments?limit=0&status=", query: undefined, want: ["query.limit"] },
    { path: "/v2/deployments", query: "?name_contains=x", want: ["query.name_contains"] },
  ])("$path $query", ({ path, query, want }) => {
    expect(sentQueryFields(path, query)).toEqual(want);
  });
});
