/** The exception entry printed for a field beyond the interface spec: named, and formatted as biome keeps it. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldExceptionAdvice } from "./field-exceptions.js";
import { fieldExceptionEntry } from "./interface-spec-tables.js";

const root = resolve(import.meta.dirname, "..");
const documentText = readFileSync(join(root, "generated", "openapi.json"), "utf8");
const tablesPath = join(root, "generator", "interface-spec-tables.ts");

describe("fieldExceptionAdvice", () => {
  it.each([
    { name: "the committed contract", added: [], want: [] },
    {
      name: "an optional field added to the request and the record",
      added: ["DeploymentCreate.description", "Deployment.description"],
      want: ["DeploymentCreate.description", "Deployment.description"],
    },
    { name: "a field added to a nested schema", added: ["SourceConfig.region"], want: ["SourceConfig.region"] },
  ])("$name", ({ added, want }) => {
    const document = JSON.parse(documentText);
    for (const where of added) {
      const [schema, field] = where.split(".") as [string, string];
      document.components.schemas[schema].properties[field] = { type: "string" };
    }
    const advice = fieldExceptionAdvice(document);
    if (want.length === 0) expect(advice).toBe("");
    for (const where of want) expect(advice).toContain(fieldExceptionEntry(where));
  });
});

describe("fieldExceptionEntry", () => {
  it("pasted at the end of `exceptions`, is left as it is by the formatter", () => {
    const source = readFileSync(tablesPath, "utf8");
    const end = source.indexOf("\n];\n", source.indexOf("export const exceptions"));
    const pasted = `${source.slice(0, end)}\n${fieldExceptionEntry("Deployment.description")}${source.slice(end)}`;
    const formatted = execFileSync(
      join(root, "node_modules", ".bin", "biome"),
      ["format", `--stdin-file-path=${tablesPath}`],
      { cwd: root, input: pasted, encoding: "utf8" },
    );
    expect(formatted).toBe(pasted);
  });
});
