/** The vitest configuration of the adapter fixture (not of this repository's tests): one file, its JSON report where ADAPTER_REPORT says. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["*.fixture.ts"],
    reporters: [["json", { outputFile: process.env.ADAPTER_REPORT ?? "adapter-report.json" }]],
  },
});
