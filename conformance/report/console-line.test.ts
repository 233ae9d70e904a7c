/** A console line's long values cut with their length, prose wrapped, commands left whole. */
import { describe, expect, it } from "vitest";
import { cutValue, cutValues, fitConsoleLine } from "./console-line.js";

const long = "a".repeat(10_000);

describe("cutValue", () => {
  const cases = [
    { given: "short", max: 120, want: "short" },
    { given: "x".repeat(120), max: 120, want: "x".repeat(120) },
    { given: "x".repeat(121), max: 120, want: `${"x".repeat(120)}… (121 characters)` },
    { given: long, max: 120, want: `${"a".repeat(120)}… (10000 characters)` },
    // code points: an emoji is one character, never split in half
    { given: "😀".repeat(5), max: 3, want: "😀😀😀… (5 characters)" },
  ];
  it.each(cases)("cuts $given.length characters at $max", ({ given, max, want }) => {
    expect(cutValue(given, max)).toBe(want);
  });
});

describe("cutValues", () => {
  const cases = [
    {
      given: "a problem title with short words only",
      want: "a problem title with short words only",
    },
    {
      given: `name_contains "${long}" returned nothing`,
      want: `name_contains "${"a".repeat(119)}… (10002 characters) returned nothing`,
    },
    {
      given: `name_contains "${"ab ".repeat(60)}" returned nothing`,
      want: `name_contains "${"ab ".repeat(39)}ab… (182 characters) returned nothing`,
    },
    {
      given: `curl -X POST 'http://h/v2' --data-binary '${"{} ".repeat(50)}'`,
      want: `curl -X POST 'http://h/v2' --data-binary '${"{} ".repeat(39)}{}… (152 characters)`,
    },
    {
      given: `the key's answer and the server's answer ${"word ".repeat(30)}`,
      want: `the key's answer and the server's answer ${"word ".repeat(30)}`,
    },
    { given: `query=${long}`, want: `query=${"a".repeat(114)}… (10006 characters)` },
  ];
  it.each(cases)("$given.length characters", ({ given, want }) => {
    expect(cutValues(given)).toBe(want);
  });
});

describe("fitConsoleLine", () => {
  const words = "word ".repeat(60).trim();
  const cases = [
    { given: "✓ [MUST]   DEP-LIST-001 short", width: 200, want: ["✓ [MUST]   DEP-LIST-001 short"] },
    {
      given: `✓ [MUST]   DEP-LIST-001 ${words}`,
      width: 100,
      want: [
        `✓ [MUST]   DEP-LIST-001 ${"word ".repeat(14)}word`,
        `    ${"word ".repeat(18)}word`,
        `    ${"word ".repeat(18)}word`,
        `    ${"word ".repeat(6)}word`,
      ],
    },
    {
      given: `    curl:   curl -i -X GET 'http://h/v2/deployments' ${"-H 'A: b' ".repeat(20).trim()}`,
      width: 100,
      want: [`    curl:   curl -i -X GET 'http://h/v2/deployments' ${"-H 'A: b' ".repeat(20).trim()}`],
    },
    {
      given: `    replay: npx deployment-conformance replay DEP-LIST-004 --seed 1 ${"--skip X ".repeat(20).trim()}`,
      width: 100,
      want: [`    replay: npx deployment-conformance replay DEP-LIST-004 --seed 1 ${"--skip X ".repeat(20).trim()}`],
    },
  ];
  it.each(cases)("$given.length characters at width $width", ({ given, width, want }) => {
    const got = fitConsoleLine(given, { width });
    expect(got.split("\n")).toEqual(want);
    for (const line of got.split("\n")) if (want.length > 1) expect(line.length).toBeLessThanOrEqual(width);
  });

  it("cuts a 10,000-character value in a problem title to one short line", () => {
    const got = fitConsoleLine(`✗ 1. [SHOULD] name_contains ${JSON.stringify(long)} left out 3 deployments`);
    expect(got).toBe(`✗ 1. [SHOULD] name_contains "${"a".repeat(119)}… (10002 characters) left out 3 deployments`);
  });
});
