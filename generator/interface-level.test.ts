/** The interface level (D-220): derived from the full contract by its `x-decision` marks, and holding only what the interface spec states. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { interfaceLevel, narrowingKeywords } from "./interface-level.js";
import { tableTargets } from "./interface-spec-tables.js";
import { loadInterfaceTables } from "./interface-tables.js";
import { sectionByHeading } from "./markdown-tables.js";

type Node = Record<string, unknown>;

const root = resolve(import.meta.dirname, "..");
const read = (file: string) => JSON.parse(readFileSync(resolve(root, file), "utf8")) as Node;
const full = read("generated/openapi.json");
const stated = read("generated/openapi.interface.json");
const decisions = readFileSync(resolve(root, "spec/decisions.md"), "utf8");
const { sections } = loadInterfaceTables();
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** The schemas of error answers: their shape is not shown by the interface spec at all (D-16) and no MUST check reads them. */
const errorSchemas = new Set(["Problem", "ProblemFieldError", "ProblemType"]);

/** `<place> <keyword>=<value>` for every constraint of the interface level, outside error answers and answer headers. */
function constraintsOf(document: Node): string[] {
  const found: string[] = [];
  const walk = (value: unknown, place: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, place);
      return;
    }
    if (!isNode(value)) return;
    for (const keyword of narrowingKeywords)
      if (keyword in value && !(keyword === "required" && typeof value.required === "boolean"))
        found.push(`${place} ${keyword}=${JSON.stringify(value[keyword])}`);
    for (const [key, child] of Object.entries(value)) {
      if (key === "examples" || key === "example" || key === "headers") continue;
      if (key === "properties" && isNode(child))
        for (const [field, schema] of Object.entries(child)) walk(schema, `${place}.${field}`);
      else walk(child, place);
    }
  };
  const components = document.components as { schemas: Record<string, Node>; parameters: Record<string, Node> };
  for (const [name, schema] of Object.entries(components.schemas)) if (!errorSchemas.has(name)) walk(schema, name);
  for (const [name, parameter] of Object.entries(components.parameters))
    walk(parameter.schema, parameter.in === "query" ? `query.${String(parameter.name)}` : name);
  for (const item of Object.values(document.paths as Record<string, Record<string, Node>>))
    for (const operation of Object.values(item)) {
      walk((operation.requestBody as Node | undefined)?.content, `${String(operation.operationId)} body`);
      for (const [status, answer] of Object.entries(operation.responses as Record<string, Node>))
        if (status.startsWith("2")) walk(answer.content, `${String(operation.operationId)} ${status}`);
    }
  return found;
}

/** What the interface spec states, from spec/interface-tables.json: the allow-list of constraints. */
function statedConstraints(): Set<string> {
  const allowed = new Set<string>([`uuid format="uuid"`]);
  const schemas = (full.components as { schemas: Record<string, Node> }).schemas;
  for (const target of tableTargets) {
    const { tables } = sectionByHeading(sections, target.heading);
    const rows = tables[0]?.rows ?? [];
    const required = rows
      .filter((row) => row.Required?.startsWith("yes") && !target.omitRow?.(row))
      .map((row) => row.Field as string);
    if (required.length > 0) allowed.add(`${target.schema} required=${JSON.stringify(required)}`);
    for (const row of rows) {
      const type = row.Type ?? "";
      if (/^date-time/.test(type)) allowed.add(`${target.schema}.${row.Field} format="date-time"`);
      if (/^enum/.test(type)) {
        // The enum a stated `enum` row names, wherever the model keeps it (inline, a $ref, a nullable branch).
        const property = (schemas[target.schema]?.properties as Record<string, Node> | undefined)?.[
          row.Field as string
        ];
        for (const ref of JSON.stringify(property ?? {}).match(/#\/components\/schemas\/\w+/g) ?? [])
          allowed.add(`${ref.split("/").at(-1)} enum=${JSON.stringify(schemas[ref.split("/").at(-1)!]?.enum)}`);
      }
    }
  }
  const states = sectionByHeading(sections, "States and transitions").tables[0]!.rows.map((row) => row.State);
  allowed.add(`DeploymentStatus enum=${JSON.stringify(states)}`);
  const query = sectionByHeading(sections, "5. List deployments").tables[0]!.rows;
  for (const row of query)
    if (/^enum/.test(row.Type ?? "")) {
      const values = [...(row.Rule ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      allowed.add(`DeploymentType enum=${JSON.stringify(values)}`);
    }
  for (const row of sectionByHeading(sections, "Limits").tables[0]!.rows) {
    const name = (row.Limit ?? "").split(" ")[0];
    for (const bound of ["minimum", "maximum"] as const) {
      const value = new RegExp(`${bound} (\\d+)`).exec(row.Value ?? "")?.[1];
      if (value) allowed.add(`query.${name} ${bound}=${value}`);
    }
  }
  return allowed;
}

describe("the interface level", () => {
  it("is the full contract without its marked constraints (derived, never kept by hand)", () => {
    expect(stated).toEqual(interfaceLevel(full));
  });

  it("holds no constraint the interface spec does not state", () => {
    const allowed = statedConstraints();
    const unstated = constraintsOf(stated).filter((constraint) => !allowed.has(constraint));
    expect(unstated).toEqual([]);
  });

  it("would catch the profile's constraints (the full contract breaks the allow-list)", () => {
    const allowed = statedConstraints();
    const unstated = constraintsOf(full).filter((constraint) => !allowed.has(constraint));
    for (const constraint of [
      "ResourceSpec.max_scale maximum=100",
      "Secret.name minLength=1",
      'Container required=["name","image"]',
      'CodeChallengeMethod enum=["S256","plain"]',
      "query.status maxItems=5",
      'UrlString format="uri"',
    ])
      expect(unstated).toContain(constraint);
  });

  it("still holds what the interface spec states (the allow-list is not empty by accident)", () => {
    const present = new Set(constraintsOf(stated));
    for (const constraint of [
      "query.limit minimum=1",
      "query.limit maximum=100",
      "query.offset minimum=0",
      'uuid format="uuid"',
      'Deployment.created_at format="date-time"',
      'DeploymentSource enum=["codehost","external_container","internal_container","internal_source","internal_template"]',
    ])
      expect(present).toContain(constraint);
    expect([...present].some((constraint) => constraint.startsWith("Deployment required="))).toBe(true);
  });

  it("cites a decision of spec/decisions.md in every mark of the full contract", () => {
    const marks = JSON.stringify(full).match(/"x-decision":"[^"]*"/g) ?? [];
    expect(marks.length).toBeGreaterThan(50);
    for (const id of new Set(marks.flatMap((mark) => mark.match(/D-\d+/g) ?? [])))
      expect(decisions, `${id} is not a row of spec/decisions.md`).toMatch(new RegExp(`^\\| ${id} \\|`, "m"));
  });

  it.each([
    {
      what: "a marked bound of a nullable field",
      schema: {
        anyOf: [{ type: "integer", format: "int32", minimum: 0, maximum: 100 }, { type: "null" }],
        "x-decision": "D-133",
      },
      interface: { anyOf: [{ type: "integer" }, { type: "null" }] },
    },
    {
      what: "an unmarked stated range keeps its bounds, loses only the width format (D-70)",
      schema: { type: "integer", format: "int32", minimum: 1, maximum: 100 },
      interface: { type: "integer", minimum: 1, maximum: 100 },
    },
    {
      what: "a marked typed map becomes a free-form object",
      schema: { type: "object", unevaluatedProperties: { type: "string" }, "x-decision": "D-01" },
      interface: { type: "object", unevaluatedProperties: {} },
    },
    {
      what: "a marked array of enum references becomes an array of strings",
      schema: { type: "array", items: { $ref: "#/components/schemas/E" }, maxItems: 5, "x-decision": "D-07" },
      interface: { type: "array", items: { type: "string" } },
    },
    {
      what: "a marked model loses its required list, not its properties",
      schema: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", maxLength: 9, "x-decision": "D-31" } },
        "x-decision": "D-65",
      },
      interface: { type: "object", properties: { name: { type: "string" } } },
    },
  ])("strips $what", ({ schema, interface: expected }) => {
    const document = { components: { schemas: { E: { type: "string", enum: ["A"] }, S: schema } } };
    expect(interfaceLevel(document).components.schemas.S).toEqual(expected);
  });
});
