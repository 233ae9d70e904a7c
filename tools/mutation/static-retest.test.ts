import { describe, expect, it } from "vitest";
import { needsIsolatedRun, type RecordedMutant } from "./static-retest.js";

const at = { start: { line: 1 } };

describe("needsIsolatedRun", () => {
  const cases: { name: string; given: RecordedMutant; want: boolean }[] = [
    { name: "a static survivor", given: { status: "Survived", static: true, location: at }, want: true },
    { name: "a static mutant killed", given: { status: "Killed", static: true, location: at }, want: false },
    { name: "a static mutant timed out", given: { status: "Timeout", static: true, location: at }, want: false },
    {
      name: "a survivor switched at run time",
      given: { status: "Survived", static: false, location: at },
      want: false,
    },
    { name: "a survivor with no static mark", given: { status: "Survived", location: at }, want: false },
    {
      name: "a static mutant no test reached",
      given: { status: "NoCoverage", static: true, location: at },
      want: false,
    },
  ];
  for (const { name, given, want } of cases) it(name, () => expect(needsIsolatedRun(given)).toBe(want));
});
