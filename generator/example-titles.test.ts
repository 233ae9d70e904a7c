/** The example-title table lists every titled example with the Prefer header that selects it, and the copy in mock/README.md is current (D-71). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { OpenAPIObject } from "../contract/index.js";
import { exampleTitleTable, titledExamples } from "./example-titles.js";

/** A two-operation document with success and error examples. */
const fixture = {
  openapi: "3.1.0",
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        responses: {
          "200": {
            content: {
              "application/json": {
                examples: { "Two things": { value: [1, 2], description: "Two of them." }, Empty: { value: [] } },
              },
            },
          },
          "422": {
            content: {
              "application/problem+json": {
                examples: { "Bad limit": { value: { status: 422 }, description: "limit | 0" } },
              },
            },
          },
        },
      },
      post: { operationId: "createThing", responses: { "201": { content: { "application/json": { schema: {} } } } } },
    },
  },
} as unknown as OpenAPIObject;

describe("exampleTitleTable", () => {
  it("has a row per titled example: success ones by title, the first served by default, error ones with their code", () => {
    expect(exampleTitleTable(titledExamples(fixture)).split("\n")).toEqual([
      "| Operation | Status | `Prefer` header | What it shows |",
      "|---|---|---|---|",
      "| `listThings` GET `/things` | 200 | `Prefer: example=Two things` | Two of them. Served when no `Prefer` header is sent. |",
      "| `listThings` GET `/things` | 200 | `Prefer: example=Empty` |  |",
      "| `listThings` GET `/things` | 422 | `Prefer: code=422, example=Bad limit` | limit \\| 0 |",
    ]);
  });
});

const readme = fileURLToPath(new URL("../mock/README.md", import.meta.url));
const start = "<!-- example-titles:start -->";
const end = "<!-- example-titles:end -->";
const readmeText = readFileSync(readme, "utf8");

describe("mock/README.md example-title table", () => {
  it("sits between its markers, so the check below cannot pass by finding nothing", () => {
    expect(readmeText).toContain(start);
    expect(readmeText).toContain(end);
  });

  it("is the output of `npx tsx generator/example-titles.ts` for the current contract", () => {
    const between = readmeText.slice(readmeText.indexOf(start) + start.length, readmeText.indexOf(end)).trim();
    expect(between).toBe(exampleTitleTable(titledExamples()));
  });
});
