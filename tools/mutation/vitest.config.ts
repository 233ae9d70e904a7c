/** The vitest configuration of the mutation run (D-360): the conformance suite over HTTP against listening targets, its one test file. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["tools/mutation/conformance.mutation.ts"],
    fileParallelism: false,
    // a mutant switched at run time needs no fresh module graph (the import is most of a run's time); a static
    // mutant does, so run.ts runs those in a second pass with isolation (D-360)
    isolate: process.env.MUTATION_ISOLATE !== "false",
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
