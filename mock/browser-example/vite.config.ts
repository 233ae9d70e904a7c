/** Vite build of the browser example (D-173): the Node built-ins the server's modules import, swapped for the browser shims beside this file. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const shim = (name: string) => fileURLToPath(new URL(`./shims/${name}.ts`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  logLevel: "warn",
  resolve: {
    alias: {
      "node:crypto": shim("node-crypto"),
      "node:fs": shim("node-fs"),
      "node:url": shim("node-url"),
      "node:path": shim("node-path"),
      "node:module": shim("node-module"),
      "node:net": shim("node-net"),
    },
  },
  build: { outDir: fileURLToPath(new URL("../../.reports/browser-example", import.meta.url)), emptyOutDir: true },
});
