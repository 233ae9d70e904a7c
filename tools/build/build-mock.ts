/**
 * Builds the deployment-mock package into mock/dist/ (`npm run build -w mock`, and `npm pack -w mock`
 * through prepack): esbuild bundles the mocks with the contract and the reference server's code they run (the
 * sandbox, the validators), so the package never imports this repository's sources; the native and
 * the large packages stay dependencies. tsc writes the declarations of the public entry points.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { nodeBuiltins, rawText } from "./browser-plugins.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
const mockRoot = join(repoRoot, "mock");
const distDir = join(mockRoot, "dist");

/**
 * In a bundle every module shares the bundle's `import.meta.url`; the contract reads its generated JSON
 * relative to its own file. Each contract module gets the URL it would have under dist/ (dist/contract/…),
 * and the files it reads are copied there, so the package reads them from itself.
 */
const contractFilesInDist: Plugin = {
  name: "contract-files-in-dist",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]contract[\\/][a-z-]+\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const inDist = `./${relative(repoRoot, args.path).split("\\").join("/")}`;
      return {
        contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(inDist)}, import.meta.url).href`),
        loader: "ts",
      };
    });
  },
};

/** Files the bundle reads at run time, by their path under dist/ (the same as in the repository). */
const runtimeFiles = ["generated/openapi.json", "generated/operations.json", "contract/demo-fixture.json"];

/** The relative `.d.ts` files `entry` imports, transitively. */
function declarationsReachedFrom(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry) || !existsSync(entry)) return seen;
  seen.add(entry);
  for (const match of readFileSync(entry, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g))
    declarationsReachedFrom(resolve(dirname(entry), `${match[1]}.d.ts`), seen);
  return seen;
}

rmSync(distDir, { recursive: true, force: true });
await build({
  absWorkingDir: repoRoot,
  entryPoints: { index: "mock/src/index.ts", msw: "mock/src/msw.ts", cli: "mock/src/cli.ts" },
  outdir: distDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // A native addon, the mock server spawned as a program, and packages large enough to install rather than copy.
  external: ["better-sqlite3", "pg-native", "@stoplight/prism-cli", "@redocly/openapi-core", "msw", "openapi-msw"],
  // Bundled CommonJS packages call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "error",
  plugins: [contractFilesInDist],
});
// The `browser` condition of `deployment-mock/msw` (D-173): the same handlers with the Node built-ins swapped for the
// browser shims and the contract's JSON files inside the bundle, for Vite, webpack or esbuild building a page.
const builtinsLeft = new Map<string, Set<string>>();
await build({
  absWorkingDir: repoRoot,
  entryPoints: ["mock/src/msw.browser.ts"],
  outfile: join(distDir, "msw.browser.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  external: ["msw", "openapi-msw"],
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "error",
  plugins: [rawText, nodeBuiltins(builtinsLeft)],
});
if (builtinsLeft.size > 0)
  throw new Error(`the browser build imports Node built-ins without a shim: ${[...builtinsLeft.keys()].join(", ")}`);
for (const file of runtimeFiles) {
  mkdirSync(dirname(join(distDir, file)), { recursive: true });
  cpSync(join(repoRoot, file), join(distDir, file));
}

// Declarations: tsc writes those of every module the entry points reach; only the ones their types need are kept.
const typesDir = join(distDir, "types");
execFileSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", join(mockRoot, "tsconfig.build.json")], {
  stdio: "inherit",
});
const kept = new Set<string>();
for (const entry of ["index", "msw"]) declarationsReachedFrom(join(typesDir, "mock", "src", `${entry}.d.ts`), kept);
const removeUnreached = (dir: string): void => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeUnreached(path);
    else if (!kept.has(path)) rmSync(path);
  }
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
};
removeUnreached(typesDir);
process.stderr.write(`built ${relative(repoRoot, distDir)}: ${kept.size} declaration files kept\n`);
