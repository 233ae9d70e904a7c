/**
 * `npm run generators:check` (D-136): generates clients from generated/openapi.json with @hey-api/openapi-ts (its zod
 * plugin on) and openapi-typescript-codegen, compiles them with `tsc --strict`, and runs a create → list with each
 * against the sandbox on a free port. Exit 1 on the first failing step.
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startMemorySandbox as startSandbox } from "../../mock/src/engine/memory-sandbox-server.js";

const here = import.meta.dirname;
const root = resolve(here, "..", "..");
const document = join(root, "generated", "openapi.json");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const run = promisify(execFile);

/** Runs one step; prints its name, time and, on failure, its output, then exits 1. */
async function step(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const started = performance.now();
  try {
    const { stdout } = await run(command, args, { cwd: here, env: { ...process.env, ...env } });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `ok   ${name} (${seconds} s)${stdout.trim() === "" ? "" : `\n     ${stdout.trim().split("\n").at(-1)}`}`,
    );
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    console.error(`FAIL ${name}\n${failed.stdout ?? ""}${failed.stderr ?? ""}${failed.stdout ? "" : failed.message}`);
    process.exit(1);
  }
}

for (const dir of ["hey-api", "codegen"]) rmSync(join(here, dir), { recursive: true, force: true });
await step("generate with @hey-api/openapi-ts (fetch client, sdk, zod)", bin("openapi-ts"), [
  "--input",
  document,
  "--output",
  "hey-api",
  "--plugins",
  "@hey-api/client-fetch",
  "@hey-api/sdk",
  "zod",
]);
// Its bin is named `openapi`, as @redocly/cli's is: which one node_modules/.bin holds depends on the install
// order, so its own script is run.
await step("generate with openapi-typescript-codegen (fetch client)", process.execPath, [
  join(root, "node_modules", "openapi-typescript-codegen", "bin", "index.js"),
  "--input",
  document,
  "--output",
  "codegen",
  "--client",
  "fetch",
]);
await step("compile both clients and the scripts with tsc --strict", bin("tsc"), ["-p", "tsconfig.json"]);

const sandbox = await startSandbox();
try {
  const env = { BASE_URL: sandbox.url };
  await step("create → list with the hey-api client against the sandbox", bin("tsx"), ["hey-api-client.ts"], env);
  await step(
    "create → list with the openapi-typescript-codegen client against the sandbox",
    bin("tsx"),
    ["codegen-client.ts"],
    env,
  );
} finally {
  await sandbox.close();
}
