/**
 * When spec/ fails to compile only because titled examples no longer fit their model (a field removed or
 * renamed), names the field and the examples that still use it, before the compiler's own report (D-262):
 * spec/ is compiled once more without those examples, and the fields the models lost are read from the
 * comparison with the last generated document.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileTypeSpec } from "./typespec-compile.js";

const root = resolve(import.meta.dirname, "..");

/** One titled example the compiler refused. */
interface RefusedExample {
  /** `spec/deployments.tsp:407`: where its `@opExample(` starts. */
  where: string;
  title: string;
}

/** What the report found: the fields gone from the models, the refused examples, and the document without them. */
interface ExampleFieldReport {
  message: string;
  /** The OpenAPI text spec/ compiles to without the refused examples. */
  text: string;
}

/** The `[start, end)` of the `@opExample(...)` call around `offset` in `source`, or undefined when the offset is in none. */
function exampleAround(source: string, offset: number): [number, number] | undefined {
  for (
    let start = source.lastIndexOf("@opExample(", offset);
    start >= 0;
    start = source.lastIndexOf("@opExample(", start - 1)
  ) {
    let depth = 0;
    for (let i = start + "@opExample".length; i < source.length; i++) {
      if (source[i] === "(") depth++;
      else if (source[i] === ")" && --depth === 0) {
        if (i >= offset) return [start, i + 1];
        break;
      }
    }
  }
  return undefined;
}

/** The properties of each component schema of an OpenAPI text, as `Schema.field`. */
function fieldsOf(text: string): Set<string> {
  const schemas = (JSON.parse(text) as { components?: { schemas?: Record<string, { properties?: object }> } })
    .components?.schemas;
  return new Set(
    Object.entries(schemas ?? {}).flatMap(([name, schema]) =>
      Object.keys(schema.properties ?? {}).map((field) => `${name}.${field}`),
    ),
  );
}

/**
 * Reads tsp's diagnostics; when every error is `unassignable` inside an `@opExample`, compiles a copy of spec/
 * without those examples and compares its fields with `previousText` (the last generated document).
 * Undefined when the diagnostics have another kind of error or the copy does not compile either.
 */
export async function reportExampleFields(
  diagnostics: string,
  previousText: string,
  specDir = join(root, "spec"),
): Promise<ExampleFieldReport | undefined> {
  const errors = [...diagnostics.matchAll(/^(\S+\.tsp):(\d+):(\d+) - error ([\w-]+)/gm)];
  if (errors.length === 0 || errors.some((error) => error[4] !== "unassignable")) return undefined;
  const cuts = new Map<string, Array<[number, number]>>();
  const refused: RefusedExample[] = [];
  for (const [, file, line, column] of errors) {
    const path = resolve(root, file!);
    const source = readFileSync(path, "utf8");
    const lineStart =
      source
        .split("\n")
        .slice(0, Number(line) - 1)
        .join("\n").length + 1;
    const range = exampleAround(source, lineStart + Number(column) - 1);
    if (!range) return undefined;
    const ranges = cuts.get(path) ?? [];
    if (ranges.some(([start]) => start === range[0])) continue;
    ranges.push(range);
    cuts.set(path, ranges);
    const at = source.slice(0, range[0]).split("\n").length;
    const title = /title:\s*"([^"]*)"/.exec(source.slice(range[0], range[1]))?.[1] ?? "(untitled)";
    refused.push({ where: `${file!.replace(/:\d+$/, "")}:${at}`, title });
  }
  // Inside the repository, so that the copy finds the TypeSpec libraries in node_modules.
  const copy = mkdtempSync(join(root, "node_modules", ".spec-without-examples-"));
  try {
    cpSync(specDir, join(copy, "spec"), { recursive: true });
    for (const [path, ranges] of cuts) {
      let source = readFileSync(path, "utf8");
      // Blank each example, keeping its newlines so that line numbers stay the same.
      for (const [start, end] of ranges.sort((a, b) => b[0] - a[0]))
        source = source.slice(0, start) + source.slice(start, end).replace(/[^\n]/g, " ") + source.slice(end);
      writeFileSync(join(copy, "spec", path.slice(specDir.length)), source);
    }
    const compiled = await compileTypeSpec(join(copy, "out"), join(copy, "spec"));
    if (!compiled.ok) return undefined;
    const now = fieldsOf(compiled.text);
    const gone = [...fieldsOf(previousText)].filter((field) => !now.has(field));
    const added = [...now].filter((field) => !fieldsOf(previousText).has(field));
    const lines = [
      gone.length > 0
        ? `spec/: ${gone.length === 1 ? "field" : "fields"} ${gone.join(", ")} left the model${added.length > 0 ? ` (new: ${added.join(", ")}; a rename?)` : ""}, and ${refused.length} titled example(s) still use ${gone.length === 1 ? "it" : "them"}:`
        : `spec/: ${refused.length} titled example(s) no longer fit their model:`,
      ...refused.map((example) => `  ${example.where} "${example.title}"`),
      "Change those examples (or the values they use) to the model; the TypeSpec compiler's own report follows.",
      "",
    ];
    return { message: lines.join("\n"), text: compiled.text };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
