/**
 * The browser proof (D-173): builds the example with Vite, serves it, opens it in headless Chromium,
 * and checks that the stateful MSW handlers in the service worker created a deployment, listed it, and
 * showed it READY after the delay.
 *   npx tsx mock/browser-example/run.ts
 */
import { fileURLToPath } from "node:url";
import { statefulPageChecks } from "../../tools/harness/browser-page.js";
import { runExample } from "../../tools/harness/run-example.js";

await runExample("browser-example", fileURLToPath(new URL("vite.config.ts", import.meta.url)), statefulPageChecks);
