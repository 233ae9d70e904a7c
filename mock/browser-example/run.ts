/**
 * The browser proof (D-173): builds the example with Vite, serves it, opens it in headless Chromium
 * (playwright-core, Debian's /usr/bin/chromium or CHROMIUM_PATH), and checks that the stateful MSW handlers
 * in the service worker created a deployment, listed it, and showed it READY after the delay.
 *   npx tsx mock/browser-example/run.ts
 */
import { copyFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build, preview } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const configFile = path.join(here, "vite.config.ts");
const outDir = path.resolve(here, "../../.reports/browser-example");

await build({ configFile });
// What `npx msw init` copies: MSW's service worker, served from the page's origin.
copyFileSync(
  path.resolve(here, "../../node_modules/msw/lib/mockServiceWorker.js"),
  path.join(outDir, "mockServiceWorker.js"),
);
const server = await preview({ configFile, preview: { port: 0, host: "127.0.0.1", strictPort: false } });
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error("vite preview did not report its URL");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let failed = false;
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  const started = Date.now();
  await page.goto(url);
  await page.waitForSelector("body[data-result]", { timeout: 30_000 });
  const result = JSON.parse((await page.getAttribute("body", "data-result")) ?? "{}") as Record<string, unknown>;
  console.log((await page.textContent("#log"))?.trim());
  console.log(JSON.stringify(result));
  const checks = {
    "created AWAITING_DATABASE": result.createdStatus === "AWAITING_DATABASE",
    "secret masked": result.createdSecret === "********",
    "listed after the create": Array.isArray(result.listedIds) && result.listedIds.includes(result.createdId),
    "READY after the delay": result.finalStatus === "READY",
  };
  for (const [name, ok] of Object.entries(checks)) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  failed = Object.values(checks).includes(false);
  console.log(`browser example ${failed ? "failed" : "passed"} in ${Date.now() - started} ms`);
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
}
process.exit(failed ? 1 : 0);
