/**
 * The browser proofs (D-173, D-331), shared by the repository's examples and the package check: a built page is
 * served, opened in headless Chromium (playwright-core, Debian's /usr/bin/chromium or CHROMIUM_PATH), and what it
 * wrote to `body[data-result]` is judged: for the stateful MSW handlers, a deployment created, masked, listed, and
 * READY after the delay; for the React Query page, every deployment of the list seen once, page after page.
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

/** What a page wrote, judged: each judgement by name. */
type Judge = (result: Record<string, unknown>) => Record<string, boolean>;

/** The stateful MSW handlers' page (D-173): created, masked, listed, READY after the delay. */
export const statefulPageChecks: Judge = (result) => ({
  "created AWAITING_DATABASE": result.createdStatus === "AWAITING_DATABASE",
  "secret masked": result.createdSecret === "********",
  "listed after the create": Array.isArray(result.listedIds) && result.listedIds.includes(result.createdId),
  "READY after the delay": result.finalStatus === "READY",
});

/** The React Query page (D-331): the infinite query's pages hold every created deployment exactly once, and rendered them. */
export const reactQueryPageChecks: Judge = (result) => {
  const created = Array.isArray(result.createdIds) ? (result.createdIds as string[]) : [];
  const seen = Array.isArray(result.seenIds) ? (result.seenIds as string[]) : [];
  const pageSize = Number(result.pageSize);
  return {
    "every created deployment seen": created.length > 0 && created.every((id) => seen.includes(id)),
    "none seen twice": new Set(seen).size === seen.length,
    "nothing else seen": seen.every((id) => created.includes(id)),
    "one page per page size, up to the end": result.pages === Math.floor(created.length / pageSize) + 1,
    "every deployment rendered": result.rendered === created.length,
  };
};

/** Serves `outDir` (a Vite build) with MSW's service worker from `mswDir`, runs the page in Chromium and judges it. */
export async function runPage(outDir: string, mswDir: string, judge: Judge = statefulPageChecks): Promise<PageRun> {
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
    return { log, result, checks: judge(result), ms: Date.now() - started };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}
