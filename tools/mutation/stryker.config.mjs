/**
 * StrykerJS over the reference server and the sandbox engine, judged by the conformance suite and by the sandbox
 * phase of vitest.config.ts (D-360):
 * the mutate list comes from scope.json (what is in, what is left out and why); tools/mutation/run.ts narrows it.
 */
import { readFileSync } from "node:fs";

const scope = JSON.parse(readFileSync(new URL("./scope.json", import.meta.url), "utf8"));
/** Where the HTML and JSON reports go (CI keeps it as an artifact). */
const reportDir = process.env.MUTATION_REPORT_DIR ?? ".reports/mutation";

export default {
  testRunner: "vitest",
  // one test file imports every target, so vitest's related-file filter would select it anyway
  vitest: { configFile: "tools/mutation/vitest.config.ts", related: false },
  // each mutant runs only the checks that reached its code; a module-level (static) mutant runs every check
  coverageAnalysis: "perTest",
  ignoreStatic: false,
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 10_000,
  timeoutFactor: 1.5,
  incremental: true,
  incrementalFile: "tools/mutation/stryker-incremental.json",
  tempDirName: ".stryker-tmp",
  reporters: ["html", "json", "progress"],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  ignorePatterns: [
    ".reports",
    ".bench",
    "dist",
    "dist-packages",
    "data",
    "examples",
    "mock/browser-example",
    "client/dist",
  ],
  mutate: [...scope.include, ...scope.exclude.map((entry) => `!${entry.glob}`)],
  mutator: { excludedMutations: scope.disabledMutators.map((entry) => entry.name) },
};
