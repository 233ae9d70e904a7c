/**
 * The React Query proof (D-331): builds the page with Vite, opens it in headless Chromium, and checks that
 * `useDeploymentPages` walked the stateful MSW list to its end, every deployment seen once.
 *   npm run example:react-query
 */
import { fileURLToPath } from "node:url";
import { reactQueryPageChecks } from "../../tools/harness/browser-page.js";
import { runExample } from "../../tools/harness/run-example.js";

await runExample(
  "react-query-example",
  fileURLToPath(new URL("vite.config.ts", import.meta.url)),
  reactQueryPageChecks,
);
