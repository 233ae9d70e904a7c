/** Compiles the TypeSpec model in spec/ into an OpenAPI 3.1 document (used by `npm run generate` and `npm run contract:check`). */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { postprocessOpenApi } from "./openapi-postprocess.js";

const root = resolve(import.meta.dirname, "..");

/** What one compilation gave: the document text (with the schema dialect declared) and tsp's diagnostics. */
interface Compiled {
  ok: boolean;
  /** The OpenAPI document, or "" when the compilation failed. */
  text: string;
  /** tsp's own output: diagnostics as `file:line:col - severity code: message`. */
  diagnostics: string;
}

/** Adds `jsonSchemaDialect: 2020-12` right after the `openapi` version field, and what else the emitter cannot write. */
function declareSchemaDialect(text: string): string {
  const { openapi, ...rest } = JSON.parse(text) as Record<string, unknown>;
  postprocessOpenApi(rest);
  return `${JSON.stringify({ openapi, jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema", ...rest }, null, 2)}\n`;
}

/**
 * Compiles `<specDir>/main.tsp` into `<outputDir>/openapi.json` and returns its text. The TypeSpec
 * emitter cannot declare the schema dialect, so it is added here: without it Prism reads every schema
 * as draft-07 and silently ignores 2020-12 keywords such as `unevaluatedProperties`.
 */
export async function compileTypeSpec(outputDir: string, specDir = join(root, "spec")): Promise<Compiled> {
  const args = [
    "compile",
    join(specDir, "main.tsp"),
    "--config",
    join(specDir, "tspconfig.yaml"),
    "--option",
    `@typespec/openapi3.emitter-output-dir=${outputDir}`,
  ];
  // tsp writes its diagnostics to stdout; the caller decides when to show them.
  let diagnostics = "";
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(join(root, "node_modules", ".bin", "tsp"), args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => (diagnostics += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (diagnostics += chunk.toString("utf8")));
    child.on("error", fail).on("close", done);
  });
  if (code !== 0) return { ok: false, text: "", diagnostics };
  return { ok: true, text: declareSchemaDialect(readFileSync(join(outputDir, "openapi.json"), "utf8")), diagnostics };
}
