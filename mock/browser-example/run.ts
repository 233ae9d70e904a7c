/**
 * The browser proof (D-173): builds the example with Vite, serves it, opens it in headless Chromium,
 * and checks that the stateful MSW handlers in the service worker created a deployment, listed it, and
 * showed it READY after the delay.
 *   npx tsx mock/browser-example/run.ts
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { runStatefulPage } from "../../tools/harness/browser-page.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, "../../.reports/browser-example");

await build({ configFile: path.join(here, "vite.config.ts") });
const run = await runStatefulPage(outDir, path.resolve(here, "../../node_modules/msw"));
console.log(run.log);
console.log(JSON.stringify(run.result));
for (const [name, ok] of Object.entries(run.checks)) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
const failed = Object.values(run.checks).includes(false);
console.log(`browser example ${failed ? "failed" : "passed"} in ${run.ms} ms`);
process.exit(failed ? 1 : 0);
