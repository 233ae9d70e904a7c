/** README figures (D-264): the comparison of a quote with a measurement, and the counts quoted that need no packing. */
import { describe, expect, it } from "vitest";
import { allChecks } from "../../conformance/checks/index.js";
import { figureDrift, quotedFigures } from "./figures.js";

describe("figureDrift", () => {
  const cases = [
    { quoted: "13.2 kB, 85 kB unpacked", measured: "13.9 kB, 88 kB unpacked", drift: false },
    { quoted: "9 kB, 57 kB unpacked", measured: "13.2 kB, 57 kB unpacked", drift: true },
    { quoted: "13.2 kB, 85 kB unpacked", measured: "13.2 kB, 85 kB unpacked, 9 files", drift: true },
    { quoted: "8 MB", measured: "8.9 MB", drift: false },
    { quoted: "8 MB", measured: "10.4 MB", drift: true },
    { quoted: "180", measured: "207", drift: true },
    { quoted: "207", measured: "207", drift: false },
  ];
  it.each(cases)("$quoted against $measured: drift $drift", ({ quoted, measured, drift }) => {
    expect(figureDrift(quoted, measured) !== undefined).toBe(drift);
  });
});

describe("figureDrift of a sample", () => {
  const sample = "\n```\nStatuses: 34 of 46 reached\nDecisions: 64 of 161\n```\n";
  it("accepts the same lines", () => {
    expect(figureDrift(sample, sample, "coverage-sample")).toBeUndefined();
  });
  it("names the first line that differs, in words as well as numbers", () => {
    expect(figureDrift(sample, sample.replace("161", "166"), "coverage-sample")).toMatch(/^line 3 quotes/);
    expect(figureDrift(sample, sample.replace("reached", "seen"), "coverage-sample")).toMatch(/^line 2 quotes/);
  });
  it("finds a line added at the end", () => {
    expect(figureDrift(sample, sample.replace(/```\n$/, "more\n```\n"), "coverage-sample")).toBeDefined();
  });
});

describe("quoted figures", () => {
  it("the number of checks is the suite's (npm run figures writes it)", () => {
    const quotes = quotedFigures().filter((figure) => figure.name === "checks");
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) expect(`${quote.file}: ${quote.text}`).toBe(`${quote.file}: ${allChecks.length}`);
  });
});
