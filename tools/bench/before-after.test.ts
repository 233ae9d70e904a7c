/** The side-by-side table of `npm run bench -- --before` (D-342): medians over the rounds and their ratios. */
import { describe, expect, it } from "vitest";
import { formatSideBySide, sideBySideRow } from "./before-after.js";

const at = (cpuUsPerRequest: number, load1m = 1) => ({ cpuUsPerRequest, requestsPerS: 1000, load1m });

describe("sideBySideRow", () => {
  it("takes the median of each build's rounds and divides after by before and by bare Koa", () => {
    const row = sideBySideRow("list limit=20", {
      before: [at(200), at(100), at(150)],
      after: [at(90), at(120), at(400)],
      bareKoa: [at(40), at(60), at(50)],
    });
    expect([row.before, row.after, row.bareKoa]).toEqual([150, 120, 50]);
    expect(row.afterOverBefore).toBeCloseTo(0.8);
    expect(row.afterOverKoa).toBeCloseTo(2.4);
  });

  it("has no bare Koa figures for a row measured without a baseline", () => {
    const row = sideBySideRow("create", { before: [at(300)], after: [at(330)], bareKoa: [] });
    expect(row.bareKoa).toBeUndefined();
    expect(formatSideBySide("9ed7758582aa", [row])).toContain("| create | 300 | 330 | 1.10 | - | - | - |");
  });

  it("prints the lowest and highest load average of every window", () => {
    const row = sideBySideRow("list limit=100", {
      before: [at(200, 3.2)],
      after: [at(210, 17.5)],
      bareKoa: [at(70, 9)],
    });
    expect(formatSideBySide("9ed7758582aa", [row])).toMatch(/before = 9ed7758582, .*load average 3\.2–17\.5/);
  });
});
