/** Vite build of the browser example (D-173): the Node built-ins the server's modules import, swapped for the package's browser shims (mock/src/browser-shims/). */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const shim = (name: string) => fileURLToPath(new URL(`../src/browser-shims/${name}.ts`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  logLevel: "warn",
  resolve: {
    alias: {
      "deployment-mock/msw": fileURLToPath(new URL("../src/msw.browser.ts", import.meta.url)),
      "deployment-client": fileURLToPath(new URL("../../generated/client.ts", import.meta.url)),
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
