/** `npm run example:browser` and `npm run example:react-query`: builds a browser example with Vite, runs it in Chromium, prints each judgement and exits 1 when one fails. */
import path from "node:path";
import { build } from "vite";
import { runPage } from "./browser-page.js";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");

/** Builds the example of `configFile` into `.reports/<name>`, runs it with the repository's MSW, judges it with `judge`, and exits. */
export async function runExample(
  name: string,
  configFile: string,
  judge: Parameters<typeof runPage>[2],
): Promise<never> {
  const outDir = path.join(repoRoot, ".reports", name);
  await build({ configFile, build: { outDir, emptyOutDir: true } });
  const run = await runPage(outDir, path.join(repoRoot, "node_modules", "msw"), judge);
  console.log(run.log);
  console.log(JSON.stringify(run.result));
  for (const [check, ok] of Object.entries(run.checks)) console.log(`${ok ? "ok  " : "FAIL"} ${check}`);
  const failed = Object.values(run.checks).includes(false);
  console.log(`${name} ${failed ? "failed" : "passed"} in ${run.ms} ms`);
  process.exit(failed ? 1 : 0);
}
