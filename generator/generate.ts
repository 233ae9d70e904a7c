/**
 * `npm run generate`: spec/ → generated/openapi.json → generated/openapi.interface.json (its interface level, D-220), generated/operations.json, generated/types.ts, generated/client.ts,
 * generated/validators.ts (the server's Ajv standalone validators, D-87), the client's react-query and validate entries with
 * their answer validators (D-331, D-332), and the per-source table of spec/decisions.md
 * from spec/source-rules.json (D-200), then lints the OpenAPI and lists the contract changes by severity (D-82). `--check` writes nothing and fails when
 * generated/ differs from what spec/ produces (the drift check CI runs). `--out <dir>` targets
 * another directory. `--watch` regenerates on every save under spec/.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { parseCommandLine } from "../common/cli.js";
import { classifyChanges } from "./contract-classify.js";
import { dereference } from "./contract-dereference.js";
import { formatChanges } from "./contract-report.js";
import { reportExampleFields } from "./example-fields.js";
import { fieldExceptionAdvice } from "./field-exceptions.js";
import { generateAnswerValidators } from "./generate-answer-validators.js";
import { generateClient } from "./generate-client.js";
import { generateValidators } from "./generate-validators.js";
import { interfaceLevel } from "./interface-level.js";
import { leftOutFieldAdvice } from "./left-out-fields.js";
import { buildOperationsTable } from "./operations-table.js";
import { copyRuntime } from "./runtime-copy.js";
import { decisionsDocument, decisionsPath } from "./source-rules-table.js";
import { compileTypeSpec } from "./typespec-compile.js";

const usage = `Usage: npm run generate -- [--check] [--out <dir>] [--watch]

Compiles spec/ and writes generated/openapi.json, openapi.interface.json, operations.json, types.ts, client.ts, validators.ts,
react-query.ts, validate.ts, answer-formats.ts and answer-validators.js (with its .d.ts) and the
per-source table of spec/decisions.md (from spec/source-rules.json), lints the
OpenAPI and lists what changed in the contract, by severity (npm run contract:check judges it).

  --check      write nothing; exit 1 when generated/ or the table of spec/decisions.md differs from what spec/ produces
  --out <dir>  write (or check) <dir> instead of generated/; with --check, repeat it to check several directories
               against one generation
  --watch      regenerate on every save under spec/, printing diagnostics, lint and changes`;

const { values } = parseCommandLine(usage, {
  check: { type: "boolean" },
  out: { type: "string", multiple: true },
  watch: { type: "boolean" },
});
const root = resolve(import.meta.dirname, "..");
const defaultDir = join(root, "generated");
const generatedDirs = values.out?.length ? values.out.map((dir) => resolve(dir)) : [defaultDir];
const generatedDir = generatedDirs[0]!;
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const check = values.check === true;
if (!check && generatedDirs.length > 1) {
  process.stderr.write(`--out is given once, unless --check is set\n\n${usage}\n`);
  process.exit(2);
}
const run = promisify(execFile);

const scratch = mkdtempSync(join(tmpdir(), "generate-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
// openapi-typescript loads while the TypeSpec compiler (the slowest step) runs.
const openapiTypeScript = import("openapi-typescript");

/** One generation; resolves to whether it succeeded (compiled, and, unless --check, linted clean; with --check, generated/ up to date). */
async function generate(): Promise<boolean> {
  // Compiled into <scratch>/generated/ so that the lint report below names generated/openapi.json.
  const compiled = await compileTypeSpec(join(scratch, "generated"));
  if (!compiled.ok) {
    // A field that left a model is named first, with the examples that still use it (D-262).
    const fields = await reportExampleFields(
      compiled.diagnostics,
      readFileSync(join(root, "generated", "openapi.json"), "utf8"),
    );
    if (fields) process.stderr.write(`${fields.message}\n`);
    process.stderr.write(compiled.diagnostics);
    console.error("TypeSpec compilation failed; see the diagnostics above.");
    return false;
  }
  // Warnings of a successful compilation are worth seeing too.
  if (/warning/.test(compiled.diagnostics)) process.stderr.write(compiled.diagnostics);
  const openapiText = compiled.text;
  writeFileSync(join(scratch, "generated", "openapi.json"), openapiText);
  // Redocly lints the fresh document while the types and the client are generated (it is the
  // second-slowest step after the TypeSpec compiler); its report is printed at the end.
  const lint = check
    ? undefined
    : run(bin("redocly"), ["lint", "--config", join(root, "redocly.yaml"), join("generated", "openapi.json")], {
        cwd: scratch,
      }).then(
        ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
        (error: { stdout?: string; stderr?: string }) => ({
          ok: false,
          output: (error.stdout ?? "") + (error.stderr ?? ""),
        }),
      );
  const { default: openapiTS, astToString } = await openapiTypeScript;
  const document = JSON.parse(openapiText) as OpenAPIObject;
  const typesText =
    "// Generated by generator/generate.ts from generated/openapi.json with openapi-typescript. Do not edit.\n" +
    astToString(
      // defaultNonNullable off: a field with a default is still optional for the client that sends it
      // (interface spec: "the rest are optional with the stated defaults").
      await openapiTS(document as never, { alphabetize: false, defaultNonNullable: false }),
    );
  const operationsTable = await buildOperationsTable(join(scratch, "generated", "openapi.json"));
  const answerValidators = generateAnswerValidators(document, operationsTable);
  const files: Record<string, string> = {
    "openapi.json": openapiText,
    "openapi.interface.json": `${JSON.stringify(interfaceLevel(document), null, 2)}\n`,
    "operations.json": `${JSON.stringify(operationsTable, null, 2)}\n`,
    "types.ts": typesText,
    "client.ts": generateClient(document as never, operationsTable),
    "validators.ts": generateValidators(document, operationsTable),
    "react-query.ts": copyRuntime("react-query-runtime.ts"),
    "validate.ts": copyRuntime("validate-runtime.ts"),
    "answer-formats.ts": copyRuntime("answer-formats-runtime.ts"),
    "answer-validators.js": answerValidators.js,
    "answer-validators.d.ts": answerValidators.dts,
  };

  const decisions = decisionsDocument();
  if (check) {
    const decisionsStale = decisions.fresh !== decisions.current;
    if (decisionsStale)
      console.error(
        "spec/decisions.md is stale: its per-source table differs from spec/source-rules.json. Run `npm run generate` and commit.",
      );
    let fresh = !decisionsStale;
    // One generation, compared with each directory (the drift test checks several at the cost of one).
    for (const dir of generatedDirs) {
      const label = dir === defaultDir ? "generated/" : `${relative(process.cwd(), dir) || "."}/`;
      const stale = Object.entries(files).filter(([name, text]) => {
        const path = join(dir, name);
        return !existsSync(path) || readFileSync(path, "utf8") !== text;
      });
      if (stale.length > 0) {
        console.error(
          `${label} is stale: ${stale.map(([name]) => name).join(", ")} differ from what spec/ produces. Run \`npm run generate\` and commit.`,
        );
        fresh = false;
      } else console.log(`${label} matches spec/ (${Object.keys(files).length} files and the per-source table).`);
    }
    return fresh;
  }

  const previousPath = join(generatedDir, "openapi.json");
  const previousText = existsSync(previousPath) ? readFileSync(previousPath, "utf8") : undefined;
  for (const [name, text] of Object.entries(files)) writeFileSync(join(generatedDir, name), text);
  if (decisions.fresh !== decisions.current) {
    writeFileSync(decisionsPath, decisions.fresh);
    console.log("wrote the per-source table of spec/decisions.md");
  }
  console.log(
    `wrote ${Object.keys(files)
      .map((name) => `generated/${name}`)
      .join(", ")}`,
  );

  if (previousText !== undefined) {
    const [before, after] = await Promise.all([dereference(previousText), dereference(openapiText)]);
    const report = formatChanges(classifyChanges(before, after));
    process.stdout.write(report.replace(/^/gm, "contract: ").replace(/contract: $/, ""));
  }

  // A field beyond the interface spec's tables needs an exception entry: printed ready to paste (D-481).
  const advice = fieldExceptionAdvice(document) + leftOutFieldAdvice(document);
  if (advice) process.stdout.write(`\n${advice}\n`);

  const linted = await lint!;
  process.stdout.write(linted.output);
  if (!linted.ok) console.error("Redocly lint found problems in the OpenAPI; see above.");
  return linted.ok;
}

const started = performance.now();
const ok = await generate();
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
if (!values.watch) {
  if (ok && !check)
    console.log(
      `generate: done in ${seconds(started)} s. Run \`npm run typecheck\` to see which code the change breaks; \`npm run contract:check\` to judge the change against main.`,
    );
  process.exit(ok ? 0 : 1);
}

// --watch: editors save in bursts (write, rename, chmod); 150 ms of quiet makes one burst one run.
// A save during a run queues exactly one more run after it.
console.log(`generate: ${ok ? "done" : "failed"} in ${seconds(started)} s; watching spec/ (Ctrl-C to stop)`);
let timer: NodeJS.Timeout | undefined;
let running = false;
let again = false;
async function regenerate(): Promise<void> {
  if (running) {
    again = true;
    return;
  }
  running = true;
  const since = performance.now();
  console.log(`\n=== spec/ changed (${new Date().toLocaleTimeString()})`);
  const result = await generate().catch((error: unknown) => {
    console.error(error);
    return false;
  });
  console.log(`generate: ${result ? "done" : "failed"} in ${seconds(since)} s after the save; watching spec/`);
  running = false;
  if (again) {
    again = false;
    void regenerate();
  }
}
// spec/ is one flat directory. A directory watch also sees editors that save by writing a new file
// and renaming it over the old one (a watch on the old file would go quiet after the first save).
watch(join(root, "spec"), (_event, file) => {
  if (file && !/\.(tsp|yaml)$/.test(file)) return;
  clearTimeout(timer);
  timer = setTimeout(() => void regenerate(), 150);
});
