/**
 * The browser bundle of the stateful MSW handlers (D-173): esbuild with platform=browser, minified,
 * its size printed raw and gzipped. Fails when a native module (a `.node` addon, better-sqlite3,
 * bindings) is in the bundle; prints every Node built-in the bundle still imports, each with the file
 * that imports it, which a browser does not have (exit 1 with --require-browser-ready when any is left).
 *   npx tsx scripts/mock/browser-bundle.ts [--require-browser-ready]
 */
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const entry = path.join(root, "scripts/mock/stateful-msw-handlers.ts");
const nativePackages = ["better-sqlite3", "bindings", "pg-native"];

/** Node built-ins left external, each with the files that import it. */
function nodeBuiltins(found: Map<string, Set<string>>): Plugin {
  const names = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  return {
    name: "node-builtins",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        if (!names.has(args.path)) return undefined;
        const importers = found.get(args.path) ?? new Set<string>();
        importers.add(path.relative(root, args.importer));
        found.set(args.path, importers);
        return { path: args.path, external: true };
      });
    },
  };
}

const builtins = new Map<string, Set<string>>();
const result = await build({
  entryPoints: [entry],
  bundle: true,
  platform: "browser",
  format: "esm",
  minify: true,
  write: false,
  metafile: true,
  logLevel: "silent",
  plugins: [nodeBuiltins(builtins)],
});
const output = result.outputFiles[0]!.contents;
const inputs = Object.keys(result.metafile.inputs);
const native = inputs.filter(
  (input) => input.endsWith(".node") || nativePackages.some((name) => input.includes(`node_modules/${name}/`)),
);
console.log(
  `stateful MSW handlers, browser bundle: ${(output.byteLength / 1024).toFixed(1)} KiB minified, ${(gzipSync(output).byteLength / 1024).toFixed(1)} KiB gzipped, ${inputs.length} modules`,
);
console.log(native.length === 0 ? "native modules: none" : `native modules: ${native.join(", ")}`);
if (builtins.size === 0) console.log("Node built-ins: none");
else
  for (const [name, importers] of [...builtins].sort())
    console.log(`Node built-in ${name} (no browser has it), imported by ${[...importers].sort().join(", ")}`);
const requireBrowserReady = process.argv.includes("--require-browser-ready");
process.exit(native.length > 0 || (requireBrowserReady && builtins.size > 0) ? 1 : 0);
