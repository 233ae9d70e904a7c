/**
 * The browser proof of the stateful MSW handlers (D-173), shared by the repository's example and the package
 * check: a built page is served, opened in headless Chromium (playwright-core, Debian's /usr/bin/chromium or
 * CHROMIUM_PATH), and what it wrote to `body[data-result]` is judged: a deployment created, masked, listed,
 * and READY after the delay.
 */
import { copyFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { preview } from "vite";

/** What the page reports once it has run. */
interface PageRun {
  /** The page's own log (`#log`). */
  log: string;
  result: Record<string, unknown>;
  /** Each judgement of the result, by name. */
  checks: Record<string, boolean>;
  ms: number;
}

/** Serves `outDir` (a Vite build) with MSW's service worker from `mswDir`, runs the page in Chromium and judges it. */
export async function runStatefulPage(outDir: string, mswDir: string): Promise<PageRun> {
  // What `npx msw init` copies: MSW's service worker, served from the page's origin.
  copyFileSync(path.join(mswDir, "lib", "mockServiceWorker.js"), path.join(outDir, "mockServiceWorker.js"));
  const server = await preview({
    configFile: false,
    root: path.dirname(outDir),
    logLevel: "warn",
    build: { outDir },
    preview: { port: 0, host: "127.0.0.1", strictPort: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("vite preview did not report its URL");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const started = Date.now();
    await page.goto(url);
    await page.waitForSelector("body[data-result]", { timeout: 30_000 });
    const result = JSON.parse((await page.getAttribute("body", "data-result")) ?? "{}") as Record<string, unknown>;
    const log = [(await page.textContent("#log"))?.trim() ?? "", ...errors.map((e) => `page error: ${e}`)].join("\n");
    const checks = {
      "created AWAITING_DATABASE": result.createdStatus === "AWAITING_DATABASE",
      "secret masked": result.createdSecret === "********",
      "listed after the create": Array.isArray(result.listedIds) && result.listedIds.includes(result.createdId),
      "READY after the delay": result.finalStatus === "READY",
    };
    return { log, result, checks, ms: Date.now() - started };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}
