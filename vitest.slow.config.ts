import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The tests too slow for `npm test`, run by their own CI step (`npm run test:slow`): `*.slow-test.ts` beside their
// code, with the settings of vitest.config.ts but its JSON report (which feeds the CI summary of `npm test`).
export default defineConfig({
  test: { ...base.test, include: ["{generator,tools}/**/*.slow-test.ts"], reporters: ["default"] },
});
