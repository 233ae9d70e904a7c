/** D-113, D-283: filtered pages run one at a time per organization, never ahead of the requests that arrived with them, 429 beyond the line. */
import { describe, expect, it } from "vitest";
import { HttpProblem } from "../errors/http-problem.js";
import { FilteredListGate, isGatedPage, maxWaitingPages } from "./filtered-list-gate.js";

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

describe("FilteredListGate", () => {
  it("runs an organization's pages one at a time in order, another organization's beside them", async () => {
    const gate = new FilteredListGate();
    const events: string[] = [];
    const page = (name: string) => async () => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setImmediate(resolve));
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      gate.run("acme", page("a1")),
      gate.run("acme", page("a2")),
      gate.run("globex", page("g1")),
    ]);
    expect(results).toEqual(["a1", "a2", "g1"]);
    expect(events.indexOf("start a2")).toBeGreaterThan(events.indexOf("end a1"));
    expect(events.indexOf("start g1")).toBeLessThan(events.indexOf("end a1"));
  });

  it("lets a request that arrived in the same turn go first", async () => {
    const gate = new FilteredListGate();
    const events: string[] = [];
    const deep = gate.run("acme", async () => events.push("deep"));
    events.push("other request");
    await deep;
    expect(events).toEqual(["other request", "deep"]);
  });

  it(`answers 429 with Retry-After beyond ${maxWaitingPages} waiting pages of one organization`, async () => {
    const gate = new FilteredListGate();
    const outcomes = await Promise.allSettled(
      Array.from({ length: maxWaitingPages + 2 }, () => gate.run("acme", async () => "page")),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(maxWaitingPages + 1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(HttpProblem);
    expect(refused.reason).toMatchObject({ status: 429, headers: { "Retry-After": "1" } });
  });
});
