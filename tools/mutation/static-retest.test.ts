import { describe, expect, it } from "vitest";
import { needsIsolatedRun, type RecordedMutant } from "./static-retest.js";

const at = { start: { line: 1, column: 1 } };

describe("needsIsolatedRun", () => {
  const cases: { name: string; given: RecordedMutant; loads?: boolean; want: boolean }[] = [
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
      name: "a survivor not marked static whose code runs while its module loads (a hybrid)",
      given: { status: "Survived", static: false, location: at },
      loads: true,
      want: true,
    },
    {
      name: "a hybrid killed",
      given: { status: "Killed", static: false, location: at },
      loads: true,
      want: false,
    },
    {
      name: "a static mutant no test reached",
      given: { status: "NoCoverage", static: true, location: at },
      want: false,
    },
  ];
  for (const { name, given, loads, want } of cases)
    it(name, () => expect(needsIsolatedRun(given, () => loads ?? false)).toBe(want));
});
