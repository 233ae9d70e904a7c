/** D-113, D-283: which pages the filtered-list gate holds, and its size. */
import { describe, expect, it } from "vitest";
import { filteredListGate, isGatedPage } from "./filtered-list-gate.js";

describe("isGatedPage", () => {
  const cases = [
    { given: { limit: 100, offset: 5600, nameContains: "a", statuses: ["READY"] }, want: true },
    { given: { limit: 100, offset: 1000, imageVersion: "1" }, want: true },
    { given: { limit: 1, offset: 0, nameContains: "zz" }, want: true },
    { given: { limit: 1, offset: 0, statuses: ["UNKNOWN"] }, want: true },
    { given: { limit: 100, offset: 5600 }, want: false },
    { given: { limit: 100, offset: 5600, deploymentIds: ["x"], nameContains: "a" }, want: false },
    { given: { limit: 100, offset: 5600, matchNothing: true, nameContains: "a" }, want: false },
  ];
  for (const { given, want } of cases)
    it(`${JSON.stringify(given)} -> ${want}`, () => expect(isGatedPage(given)).toBe(want));
});

describe("filteredListGate", () => {
  it("runs one filtered page per organization with 16 waiting: the 18th is 429", async () => {
    const gate = filteredListGate();
    const outcomes = await Promise.allSettled(Array.from({ length: 18 }, () => gate.run("acme", async () => "page")));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(17);
    expect(outcomes.at(-1)).toMatchObject({ status: "rejected", reason: { status: 429 } });
  });
});
