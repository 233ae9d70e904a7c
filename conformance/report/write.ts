/** Writes junit.xml, results.json and report.html into --report-dir. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../runner/result.js";
import { renderHtml } from "./html.js";
import { renderJunit } from "./junit.js";

export function writeReports(dir: string, result: RunResult): string[] {
  mkdirSync(dir, { recursive: true });
  const files = {
    "junit.xml": renderJunit(result),
    "results.json": `${JSON.stringify(result, null, 2)}\n`,
    "report.html": renderHtml(result),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return Object.keys(files).map((f) => join(dir, f));
}
