import { defineConfig } from "vitest/config";

// The project's own tests: `*.test.ts` beside the code they test. The conformance checks are not
// tests of this repository; they run through `npm run conformance` against a target.
export default defineConfig({
  test: {
    include: ["{contract,scripts,server,conformance,examples,common,mock,client,tools}/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    globalSetup: ["scripts/test-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    // The JSON report feeds the one-line summary that .ci/run prints last.
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
  },
});
