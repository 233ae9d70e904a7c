/** Vitest configuration of a conformance run (not of this repository's tests): the suite files, one at a time. */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  // keep Vite's cache out of the package directory (it may be read-only, and must not end up in `npm pack`)
  cacheDir: join(tmpdir(), "deployment-conformance-vite"),
  test: {
    root: here,
    include: ["suite/*.check.ts"],
    // the package may be installed under node_modules; the default exclude would hide the suite there
    exclude: [],
    // one file at a time: the fuzz checks compare lists before and after, so nothing else may write meanwhile
    fileParallelism: false,
    maxWorkers: 1,
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    sequence: { shuffle: false },
    watch: false,
    passWithNoTests: true,
  },
});
