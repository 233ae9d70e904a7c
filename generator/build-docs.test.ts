/** The API reference page renders every operation in headless Chromium, offline. */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { document, operationList as operations } from "../contract/index.js";
import { buildDocs, externalResources } from "./build-docs.js";

const chromiumPath = "/usr/bin/chromium";
const screenshots = fileURLToPath(new URL("../.screenshots/", import.meta.url));

describe("externalResources", () => {
  const cases: Array<{ name: string; html: string; want: string[] }> = [
    {
      name: "CDN module import",
      html: '<script type="module">import { hydrate } from "https://cdn.example/redoc.js";</script>',
      want: ["https://cdn.example/redoc.js"],
    },
    {
      name: "CDN script tag",
      html: '<script src="https://cdn.example/a.js"></script>',
      want: ["https://cdn.example/a.js"],
    },
    {
      name: "modulepreload link",
      html: '<link rel="modulepreload" href="https://cdn.example/b.js" />',
      want: ["https://cdn.example/b.js"],
    },
    {
      name: "stylesheet url()",
      html: "<style>@font-face{src:url(https://fonts.example/f.woff2)}</style>",
      want: ["https://fonts.example/f.woff2"],
    },
    {
      name: "inline script and plain links",
      html: '<script>var x = 1;</script><a href="https://redocly.com/redoc/">Redoc</a>',
      want: [],
    },
  ];
  it.each(cases.map((entry) => [entry.name, entry] as const))("%s", (_name, entry) => {
    expect(externalResources(entry.html)).toEqual(entry.want);
  });
});

const missing = existsSync(chromiumPath) ? undefined : `${chromiumPath} is missing (apt-get install -y chromium)`;

describe.skipIf(missing !== undefined)(
  `npm run docs in headless Chromium${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    let dir: string;
    let pageUrl: string;
    let browser: Browser;
    let page: Page;
    /** Requests the page tried to send off the machine, with their kind. */
    const offMachine: Array<{ type: string; url: string }> = [];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "api-reference-"));
      const built = await buildDocs(join(dir, "api-reference.html"));
      pageUrl = pathToFileURL(built.path).href;
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
      });
      page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:") || url.startsWith("data:")) return route.continue();
        offMachine.push({ type: route.request().resourceType(), url });
        return route.abort();
      });
    });

    afterAll(async () => {
      await browser?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("renders the overview with every operation's method and path, and takes a screenshot", async () => {
      await page.goto(pageUrl, { waitUntil: "load" });
      for (const operation of operations) {
        await operationButton(page, operation.method, operation.path)
          .first()
          .waitFor({ state: "visible", timeout: 10_000 });
      }
      await mkdir(screenshots, { recursive: true });
      await page.screenshot({ path: join(screenshots, "api-reference.png") });
    });

    it.each(operations.map((operation) => [operation.id, operation] as const))(
      "renders %s with its description and path",
      async (operationId, operation) => {
        await page.goto(pageUrl, { waitUntil: "load" });
        // A click that lands before Redoc has hydrated the prerendered page does nothing; click again.
        // Redoc titles an operation by its OpenAPI summary (`@summary` in the TypeSpec model).
        const title = (document.paths?.[operation.path]?.[operation.method]?.summary ?? operationId).replace(
          /[.*+?^${}()|[\]\\]/g,
          "\\$&",
        );
        const heading = page.locator("h1, h2", { hasText: new RegExp(`^\\s*${title}\\s*$`) });
        for (let attempt = 1; ; attempt += 1) {
          await operationButton(page, operation.method, operation.path).first().click({ timeout: 10_000 });
          try {
            await heading.first().waitFor({ state: "visible", timeout: 2_000 });
            break;
          } catch (error) {
            if (attempt === 5) throw error;
          }
        }
        // The description's first paragraph is shown under the title.
        await page
          .getByText(operation.summary, { exact: false })
          .first()
          .waitFor({ state: "visible", timeout: 10_000 });
        const text = await page.evaluate(() => window.document.body.textContent ?? "");
        expect(text).toContain(operation.path);
        if (operationId === "createDeployment") {
          // Redoc scrolls smoothly to the operation; the screenshot waits until it has arrived.
          await heading.first().scrollIntoViewIfNeeded();
          await scrollSettled(page);
          await page.screenshot({ path: join(screenshots, "api-reference-createDeployment.png") });
        }
      },
    );

    it("loads no script, style or font from the network (only Redocly's badge logo image is attempted)", () => {
      expect(offMachine.filter((request) => request.type !== "image")).toEqual([]);
    });
  },
);

/** The button of an operation in its tag's overview: "get/v2/deployments" in the DOM, upper-cased by CSS. */
function operationButton(page: Page, method: string, path: string) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.locator("button", { hasText: new RegExp(`^\\s*${method}\\s*${escaped}\\s*$`, "i") });
}

/** Waits until the page stops scrolling (two equal samples 100 ms apart, at most 2.5 s). */
async function scrollSettled(page: Page): Promise<void> {
  let last = -1;
  for (let sample = 0; sample < 25; sample += 1) {
    const y = await page.evaluate(() => window.scrollY);
    if (y === last) return;
    last = y;
    await page.waitForTimeout(100);
  }
}
