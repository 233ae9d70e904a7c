/** The emitter's output rewritten (D-130, D-131, D-135): constraints inside nullable branches, X-Request-Id everywhere, 5xx documented, style form. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { constraintsBesideNullable, moveNullableConstraints } from "./nullable-constraints.js";

const root = resolve(import.meta.dirname, "..");
const document = JSON.parse(readFileSync(join(root, "generated", "openapi.json"), "utf8")) as any;

describe("moveNullableConstraints", () => {
  it.each([
    {
      name: "maxLength of a nullable string",
      given: { anyOf: [{ type: "string" }, { type: "null" }], maxLength: 5, description: "d" },
      want: { anyOf: [{ type: "string", maxLength: 5 }, { type: "null" }], description: "d" },
    },
    {
      name: "minimum and maximum of a nullable number, null first",
      given: { anyOf: [{ type: "null" }, { type: "number" }], minimum: 0, maximum: 9 },
      want: { anyOf: [{ type: "null" }, { type: "number", minimum: 0, maximum: 9 }] },
    },
    {
      name: "maxItems of a nullable array, nested in properties",
      given: { properties: { a: { anyOf: [{ type: "array" }, { type: "null" }], maxItems: 3 } } },
      want: { properties: { a: { anyOf: [{ type: "array", maxItems: 3 }, { type: "null" }] } } },
    },
    {
      name: "a union of two non-null types is left alone",
      given: { anyOf: [{ type: "string" }, { type: "number" }], maxLength: 5 },
      want: { anyOf: [{ type: "string" }, { type: "number" }], maxLength: 5 },
    },
  ])("$name", ({ given, want }) => {
    moveNullableConstraints(given);
    expect(given).toEqual(want);
  });

  it("refuses a constraint beside a nullable $ref", () => {
    const given = { anyOf: [{ $ref: "#/components/schemas/X" }, { type: "null" }], maxItems: 3 };
    expect(() => moveNullableConstraints(given)).toThrow(/beside a nullable \$ref/);
  });
});

describe("generated/openapi.json", () => {
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item as object));

  it("has no constraint beside a nullable anyOf", () => {
    expect(constraintsBesideNullable(document)).toEqual([]);
  });

  it("keeps repo_url's maxLength in its string branch", () => {
    expect(document.components.schemas.SourceConfig.properties.repo_url.anyOf[0]).toEqual({
      type: "string",
      maxLength: 2048,
    });
  });

  it("documents 500 and 503 on every operation, 503 with Retry-After, and X-Request-Id on every answer", () => {
    for (const operation of operations) {
      expect(Object.keys(operation.responses), operation.operationId).toEqual(expect.arrayContaining(["500", "503"]));
      expect(operation.responses["503"].headers["Retry-After"].required).toBe(true);
      for (const response of Object.values(operation.responses) as { headers: object }[])
        expect(response.headers, operation.operationId).toHaveProperty("X-Request-Id");
    }
  });

  it("says style form on every array query parameter", () => {
    const arrays = Object.values(document.components.parameters).filter(
      (parameter: any) => parameter.in === "query" && parameter.schema.type === "array",
    );
    expect(arrays.length).toBeGreaterThan(0);
    for (const parameter of arrays) expect(parameter).toMatchObject({ style: "form", explode: false });
  });

  it("gives every path parameter an example that the demo data knows", () => {
    const pathParameters = Object.entries(document.components.parameters).filter(
      ([, parameter]: [string, any]) => parameter.in === "path",
    );
    expect(
      Object.fromEntries(pathParameters.map(([name, parameter]: [string, any]) => [name, parameter.example])),
    ).toEqual({
      IntegrationPath: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
      ManagedIntegrationPath: "5e2d3b0f-6c8e-4f3a-9b7d-2e1f0c9b8d76",
    });
  });
});
