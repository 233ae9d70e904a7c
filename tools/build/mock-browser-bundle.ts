/**
 * The browser bundle of the stateful MSW handlers (D-173): esbuild with platform=browser, minified, with
 * the browser shims of mock/src/browser-shims in place of the Node built-ins the server's modules import
 * (as the browser example's Vite build has them); its size printed raw and gzipped. Fails when a native
 * module (a `.node` addon, better-sqlite3, bindings) or a Node built-in is left in the bundle; with
 * --without-shims, lists the Node built-ins the server's modules import, each with its importers.
 *   npm run mock:browser-bundle [-- --without-shims]
 */

import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { nodeBuiltins, rawText } from "./browser-plugins.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const nativePackages = ["better-sqlite3", "bindings", "pg-native"];
const withShims = !process.argv.includes("--without-shims");

const builtins = new Map<string, Set<string>>();
const result = await build({
  stdin: {
    contents: `${withShims ? 'import "./mock/src/browser-shims/globals.ts";\n' : ""}export * from "./mock/src/stateful-msw-handlers.ts";`,
    resolveDir: root,
    sourcefile: "browser-entry.ts",
    loader: "ts",
  },
  bundle: true,
  platform: "browser",
  format: "esm",
  minify: true,
  write: false,
  metafile: true,
  logLevel: "silent",
  plugins: [rawText, nodeBuiltins(builtins, withShims)],
});
const output = result.outputFiles[0]!.contents;
const inputs = Object.keys(result.metafile.inputs);
const native = inputs.filter(
  (input) => input.endsWith(".node") || nativePackages.some((name) => input.includes(`node_modules/${name}/`)),
);
console.log(
  `stateful MSW handlers, browser bundle${withShims ? "" : " without the shims"}: ${(output.byteLength / 1024).toFixed(1)} KiB minified, ${(gzipSync(output).byteLength / 1024).toFixed(1)} KiB gzipped, ${inputs.length} modules`,
);
console.log(native.length === 0 ? "native modules: none" : `native modules: ${native.join(", ")}`);
if (builtins.size === 0) console.log("Node built-ins: none");
else
  for (const [name, importers] of [...builtins].sort())
    console.log(`Node built-in ${name} (no browser has it), imported by ${[...importers].sort().join(", ")}`);
process.exit(native.length > 0 || (withShims && builtins.size > 0) ? 1 : 0);
