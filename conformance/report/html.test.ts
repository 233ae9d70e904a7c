/** Tests of the HTML report: self-contained, summary per level, the first failure expanded, status filter (headless Chromium when present). */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../runner/result.js";
import { renderHtml } from "./html.js";
import { groupProblems } from "./problems.js";

const chromium =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

const result: RunResult = {
  runId: "h7ml01",
  seed: 3,
  target: "http://127.0.0.1:9",
  startedAt: "2026-11-21T00:00:00.000Z",
  finishedAt: "2026-11-21T00:00:02.000Z",
  durationMs: 2000,
  config: {},
  summary: { MUST: { pass: 1, fail: 1, skip: 0 }, SHOULD: { pass: 1, fail: 0, skip: 1 } },
  created: [{ kind: "deployment", id: "d1", name: "cf-h7ml01-x", key: "main", check: "DEP-LIST-001" }],
  errors: [],
  warnings: ["the run created nothing <b>"],
  coverage: {
    operations: [
      {
        operation: "listDeployments",
        method: "GET",
        path: "/v2/deployments",
        statuses: [
          { status: 200, state: "failed", requests: 2, passedBy: ["DEP-LIST-001"], failedBy: ["DEP-LIST-004"] },
          { status: 401, state: "unreached", requests: 0, passedBy: [], failedBy: [] },
        ],
        undocumented: [],
      },
    ],
    decisions: [{ id: "D-13", level: "SHOULD", state: "passed", checks: ["AUTH-001"] }],
    unexercised: ["listDeployments 401"],
  },
  exitCode: 1,
  problems: [],
  verdicts: [
    {
      id: "DEP-LIST-001",
      level: "MUST",
      tags: ["listDeployments"],
      statement: "lists",
      specRef: "interface-spec: 5",
      area: "deployments-list",
      status: "pass",
      durationMs: 5,
    },
    {
      id: "DEP-LIST-004",
      level: "MUST",
      tags: ["listDeployments"],
      statement: "limit=0 is rejected with a 4xx",
      specRef: "interface-spec: 5",
      area: "deployments-list",
      status: "fail",
      durationMs: 7,
      failure: {
        message: "list deployments with limit=0: expected a 4xx answer, got 200",
        exchange: {
          request: {
            method: "GET",
            url: "http://127.0.0.1:9/v2/deployments?limit=0",
            headers: { "X-Api-Key": "[REDACTED]" },
            keyRef: "main",
          },
          response: {
            status: 200,
            headers: { "content-type": "application/json" },
            body: '{"resources":[],"offset":0}',
          },
          json: { resources: [], offset: 0 },
          durationMs: 2,
        },
        curl: `curl -i -X GET 'http://127.0.0.1:9/v2/deployments?limit=0' -H "X-Api-Key: $CONFORMANCE_API_KEY"`,
      },
    },
    {
      id: "AUTH-001",
      level: "SHOULD",
      tags: ["auth"],
      statement: "401 <script>alert(1)</script>",
      specRef: "D-13 to D-15",
      area: "auth",
      status: "pass",
      durationMs: 3,
    },
    {
      id: "ISO-001",
      level: "SHOULD",
      tags: ["isolation"],
      statement: "isolation",
      specRef: "D-13 to D-15",
      area: "isolation",
      status: "skip",
      durationMs: 0,
      skipReason: "needs --other-api-key",
    },
  ],
};

result.problems = groupProblems(result.verdicts);

describe("renderHtml", () => {
  const html = renderHtml(result);

  it("is self-contained: no external scripts, styles or images", () => {
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
  });
  it("escapes check text", () => {
    expect(html).not.toContain("<script>alert(1)</script>");
  });
  it("shows the coverage matrix, the unreached statuses and the warnings, escaped", () => {
    expect(html).toMatch(
      /<td class="cov failed" title="listDeployments 200: failed, 2 requests\nfailed: DEP-LIST-004\npassed: DEP-LIST-001">✗<\/td>/,
    );
    expect(html).toMatch(/<td class="cov unreached"[^>]*>·<\/td>/);
    expect(html).toContain("Never reached: listDeployments 401");
    expect(html).toContain("<li>the run created nothing &lt;b&gt;</li>");
  });
  it("opens on the problems, the first expanded with the checks it explains, and never shows a key", () => {
    expect(html.indexOf('<section id="problems">')).toBeLessThan(html.indexOf('class="cards"'));
    expect(html).toMatch(
      /<details class="problem" open><summary><span class="level MUST">MUST<\/span> GET \/v2\/deployments\?limit=0 is answered 200/,
    );
    expect(html).toContain('<a href="#check-DEP-LIST-004">DEP-LIST-004</a>');
    expect(html).not.toMatch(/<details class="failure" open>/);
    expect(html).not.toContain("dk_");
  });
});

describe.skipIf(!chromium)("renderHtml in headless Chromium", () => {
  it("shows the problems first, the summary, the coverage matrix, and filters by status", async () => {
    const { chromium: launcher } = await import("playwright-core");
    const browser = await launcher.launch({
      executablePath: chromium,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = await browser.newPage();
      await page.setContent(renderHtml(result));
      expect(await page.textContent("#summary-MUST")).toContain("1 failed");
      expect(await page.textContent("#summary-SHOULD")).toContain("1 skipped");
      expect(await page.isVisible("details.problem[open] pre")).toBe(true);
      expect(await page.isVisible("#problems >> text=DEP-LIST-004")).toBe(true);
      expect(await page.isVisible("details.failure pre.curl")).toBe(false);
      // the coverage matrix: the failed cell and the unreached one, with the checks in the failed cell's title
      expect(await page.isVisible("table#coverage")).toBe(true);
      const failed = page.locator("table#coverage td.cov.failed");
      expect(await failed.textContent()).toBe("✗");
      expect(await failed.getAttribute("title")).toContain("failed: DEP-LIST-004");
      expect(await page.locator("table#coverage td.cov.unreached").textContent()).toBe("·");
      expect(await page.isVisible("text=Never reached: listDeployments 401")).toBe(true);
      await page.uncheck('input[data-filter="pass"]');
      expect(await page.locator("tr.check.pass").first().isVisible()).toBe(false);
      expect(await page.locator("tr.check.fail").first().isVisible()).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
