/** Vite build of the React Query example (D-331): the browser example's set-up (D-173), with the client's react-query entry at its source. */
import { fileURLToPath } from "node:url";
import { mergeConfig } from "vite";
import browserExample from "../../mock/browser-example/vite.config.js";

const source = (file: string) => fileURLToPath(new URL(`../../generated/${file}`, import.meta.url));

export default mergeConfig(browserExample, {
  root: fileURLToPath(new URL(".", import.meta.url)),
  // TanStack's "use client" directives and React's chunk size are warnings about server components and splitting, not about this page.
  logLevel: "error",
  // Before the browser example's `deployment-client` alias, which would also match this subpath.
  resolve: { alias: [{ find: /^deployment-client\/react-query$/, replacement: source("react-query.ts") }] },
});
