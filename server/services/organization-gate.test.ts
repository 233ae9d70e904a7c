/** D-283, D-350: per-organization slots, never ahead of the requests that arrived with them, 429 beyond the line. */
import { describe, expect, it } from "vitest";
import { HttpProblem } from "../errors/http-problem.js";
import { OrganizationGate } from "./organization-gate.js";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("OrganizationGate", () => {
  it("runs an organization's entries one at a time in order, another organization's beside them", async () => {
    const gate = new OrganizationGate({ running: 1, waiting: 16, what: "pages" });
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`start ${name}`);
      await turn();
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      gate.run("acme", work("a1")),
      gate.run("acme", work("a2")),
      gate.run("globex", work("g1")),
    ]);
    expect(results).toEqual(["a1", "a2", "g1"]);
    expect(events.indexOf("start a2")).toBeGreaterThan(events.indexOf("end a1"));
    expect(events.indexOf("start g1")).toBeLessThan(events.indexOf("end a1"));
  });

  it("lets a request that arrived in the same turn go first", async () => {
    const gate = new OrganizationGate({ running: 1, waiting: 16, what: "pages" });
    const events: string[] = [];
    const held = gate.run("acme", async () => events.push("held"));
    events.push("other request");
    await held;
    expect(events).toEqual(["other request", "held"]);
  });

  const sizes = [
    { given: { running: 1, waiting: 16 }, want: { admitted: 17 } },
    { given: { running: 2, waiting: 16 }, want: { admitted: 18 } },
    { given: { running: 2, waiting: 0 }, want: { admitted: 2 } },
  ];
  for (const { given, want } of sizes)
    it(`admits ${want.admitted} at ${JSON.stringify(given)}, then 429 with Retry-After`, async () => {
      const gate = new OrganizationGate({ ...given, what: "pages" });
      const outcomes = await Promise.allSettled(
        Array.from({ length: want.admitted + 2 }, () => gate.run("acme", async () => "page")),
      );
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(want.admitted);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(HttpProblem);
      expect(refused.reason).toMatchObject({ status: 429, headers: { "Retry-After": "1" } });
    });

  it("holds a slot until its release, which counts once however often it is called", async () => {
    const gate = new OrganizationGate({ running: 2, waiting: 4, what: "pages" });
    const first = await gate.acquire("acme");
    const second = await gate.acquire("acme");
    let third = false;
    const waiting = gate.acquire("acme").then((release) => {
      third = true;
      return release;
    });
    await turn();
    expect(third).toBe(false);
    first();
    first();
    const release = await waiting;
    expect(third).toBe(true);
    // Still two running (the second and the third): a fourth waits although `first` was called twice.
    let fourth = false;
    const last = gate.acquire("acme").then((r) => {
      fourth = true;
      return r;
    });
    await turn();
    await turn();
    expect(fourth).toBe(false);
    second();
    (await last)();
    release();
    expect(fourth).toBe(true);
  });
});
