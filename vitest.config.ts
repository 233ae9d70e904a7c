import { defineConfig } from "vitest/config";
import { scaledMs } from "./common/machine-time.js";

// The project's own tests: `*.test.ts` beside the code they test. The conformance checks are not
// tests of this repository; they run through `npm run conformance` against a target.
export default defineConfig({
  test: {
    include: ["{contract,scripts,server,conformance,examples,common,mock,client,generator,tools}/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    globalSetup: ["scripts/test-global-setup.ts"],
    // Idle-machine figures scaled by the load per core at start, or by TIME_SCALE (D-403).
    testTimeout: scaledMs(30_000),
    hookTimeout: scaledMs(60_000),
    // The files of a worker share their imported modules (D-511): importing the server and the suite once per worker,
    // not once per file, takes about a third off the run.
    isolate: false,
    fileParallelism: true,
    maxWorkers: 2,
    // The JSON report feeds the one-line summary that .ci/run prints last.
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
  },
});
