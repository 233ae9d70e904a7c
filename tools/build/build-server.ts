/**
 * `npm run build`: the reference server compiled to JavaScript (D-89). esbuild bundles server/main.ts
 * with its dependencies into dist/server/ (better-sqlite3 stays outside: a native addon), so that
 * `npm start` loads a handful of files instead of transpiling some 80 modules at every start. The
 * libraries it bundles are still the root package's `dependencies` (D-468): `npm ci --omit=dev`
 * installs the native one and `npm audit --omit=dev` audits the versions the bundle was made from.
 * `--if-stale` builds only when a file the bundle was made from changed (dist/server/build-info.json
 * holds their hashes); `npm start` runs it first, so a fresh clone still starts with one command.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build, version as esbuildVersion, type Plugin } from "esbuild";
import { parseCommandLine } from "../../common/cli.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
/** Where the built server lives; launchers run `dist/server/main.mjs`. */
export const builtServerDir = join(repoRoot, "dist", "server");
export const builtServerEntry = join(builtServerDir, "main.mjs");
const buildInfoPath = join(builtServerDir, "build-info.json");

/** What a build was made from: every input file (repository-relative) with its SHA-256, and the bundler's version. */
interface BuildInfo {
  esbuild: string;
  inputs: Record<string, string>;
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Why the build in dist/ no longer matches its sources, or undefined when it is current. */
export function staleReason(): string | undefined {
  if (!existsSync(builtServerEntry) || !existsSync(buildInfoPath)) return "no build yet";
  let info: BuildInfo;
  try {
    info = JSON.parse(readFileSync(buildInfoPath, "utf8")) as BuildInfo;
  } catch {
    return "unreadable build-info.json";
  }
  if (info.esbuild !== esbuildVersion) return `built with esbuild ${info.esbuild}`;
  for (const [file, hash] of Object.entries(info.inputs)) {
    const absolute = join(repoRoot, file);
    if (!existsSync(absolute) || sha256(absolute) !== hash) return `${file} changed`;
  }
  return undefined;
}

/**
 * The contract's modules only read the contract: one the server does not use (the whole document,
 * examples) may be left out of the bundle, which esbuild does only for modules without side effects.
 */
const contractWithoutSideEffects: Plugin = {
  name: "contract-without-side-effects",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/contract\/[a-z-]+\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")),
      sideEffects: false,
    }));
  },
};

/**
 * In a bundle every module shares the bundle's `import.meta.url`; the contract reads its generated
 * JSON relative to its own file. Each module that uses it gets its own URL back, written relative to
 * the bundle so that the built tree still works wherever the checkout is moved.
 */
const ownImportMetaUrl: Plugin = {
  name: "own-import-meta-url",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const fromBundle = relative(builtServerDir, args.path).split("\\").join("/");
      return {
        contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: "ts",
      };
    });
  },
};

/** Builds dist/server/ into a fresh folder and swaps it in, so a concurrent start never sees half a build. */
export async function buildServer(): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const staging = `${builtServerDir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: { main: "server/main.ts" },
    outdir: staging,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // Kysely, needed only to create a new database, stays a chunk loaded on demand.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["better-sqlite3", "pg-native"],
    // Bundled CommonJS packages call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    // Less to parse at every start; names are kept, so stack traces still read.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "error",
    plugins: [contractWithoutSideEffects, ownImportMetaUrl],
  });
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    // Inputs are relative to absWorkingDir; plugin-loaded ones may carry a namespace prefix.
    const file = input.replace(/^[a-z-]+:/, "");
    if (existsSync(join(repoRoot, file))) inputs[file] = sha256(join(repoRoot, file));
  }
  // Files the bundle reads at run time count as inputs too.
  for (const file of ["generated/operations.json", "generated/openapi.json", "contract/demo-fixture.json"])
    inputs[file] = sha256(join(repoRoot, file));
  writeFileSync(join(staging, "build-info.json"), `${JSON.stringify({ esbuild: esbuildVersion, inputs }, null, 1)}\n`);
  rmSync(builtServerDir, { recursive: true, force: true });
  renameSync(staging, builtServerDir);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { ms: performance.now() - started, bytes };
}

/** One line on what a build wrote, e.g. `built dist/server/main.mjs (no build yet): 1510 KiB in 479 ms`. */
function builtLine(reason: string | undefined, { ms, bytes }: { ms: number; bytes: number }): string {
  const why = reason === undefined ? "" : ` (${reason})`;
  return `built ${relative(repoRoot, builtServerEntry)}${why}: ${(bytes / 1024).toFixed(0)} KiB in ${ms.toFixed(0)} ms\n`;
}

/** Builds when the build is missing or stale; says which it did on stderr. */
export async function buildServerIfStale(): Promise<void> {
  const reason = staleReason();
  if (reason === undefined) return;
  process.stderr.write(builtLine(reason, await buildServer()));
}

const usage = `Usage: npm run build [-- --if-stale]

Bundles the reference server into dist/server/main.mjs (npm start runs it).
  --if-stale   build only when a source file changed since the last build`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseCommandLine(usage, { "if-stale": { type: "boolean" } });
  if (values["if-stale"]) await buildServerIfStale();
  else process.stdout.write(builtLine(undefined, await buildServer()));
}
