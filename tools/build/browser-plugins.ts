/**
 * esbuild plugins for a browser build of the server's modules (D-173): Vite's `?raw` imports as text, and each
 * Node built-in the server imports swapped for its shim in mock/src/browser-shims/; a built-in without a shim
 * is left external and recorded with its importers, so the caller can fail on it.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import type { Plugin } from "esbuild";

const root = path.resolve(import.meta.dirname, "../..");
const shims = path.join(root, "mock/src/browser-shims");
const shimmed = ["crypto", "fs", "url", "path", "module", "net"];

/** Vite's `?raw` imports (the fs shim's bundled JSON files) as text. */
export const rawText: Plugin = {
  name: "raw-text",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\?raw$/, "")),
      namespace: "raw-text",
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "raw-text" }, (args) => ({
      contents: readFileSync(args.path, "utf8"),
      loader: "text",
    }));
  },
};

/** Node built-ins: shimmed ones (when `withShims`) resolved to their shim, others left external and recorded in `found` with their importers. */
export function nodeBuiltins(found: Map<string, Set<string>>, withShims = true): Plugin {
  const names = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  return {
    name: "node-builtins",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        if (!names.has(args.path)) return undefined;
        const name = args.path.replace(/^node:/, "");
        if (withShims && args.path.startsWith("node:") && shimmed.includes(name))
          return { path: path.join(shims, `node-${name}.ts`) };
        const importers = found.get(args.path) ?? new Set<string>();
        importers.add(path.relative(root, args.importer));
        found.set(args.path, importers);
        return { path: args.path, external: true };
      });
    },
  };
}
