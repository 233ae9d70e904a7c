/** D-283: a filtered page of SQLite read in windows of sequence numbers gives the same deployments as one scan would, across window edges and offsets. */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { newDeployment } from "../testing/new-deployment.js";
import { joinedPageTexts } from "../testing/page-texts.js";
import { SqliteStore } from "./sqlite-store.js";

describe("windowed filtered pages (D-283)", () => {
  it("pages a sparse filter over several windows exactly", async () => {
    const store = new SqliteStore({ renderer: deploymentRenderer, path: ":memory:" });
    await store.migrate();
    const organizationId = randomUUID();
    const tenantId = randomUUID();
    await store.createOrganization({ id: organizationId, name: "o" });
    await store.createTenant({ id: tenantId, organizationId, name: "t" });
    const count = 4_500;
    // Every 7th name holds "zq": about 640 matches spread over three windows of 2,000.
    const names = Array.from({ length: count }, (_, i) => (i % 7 === 0 ? `a${i}zq` : `b${i}`));
    await Promise.all(names.map((name) => store.createDeployment(newDeployment(tenantId, name), Date.now() * 1000)));
    const matches = names.filter((name) => name.includes("zq")).reverse();
    const pageNames = async (offset: number, limit: number, nameContains: string) => {
      const page = await store.listDeploymentTexts(tenantId, { limit, offset, nameContains }, Date.now() * 1000);
      return (JSON.parse(`[${await joinedPageTexts(page)}]`) as Array<{ name: string }>).map((d) => d.name);
    };
    for (const [offset, limit] of [
      [0, 100],
      [250, 100],
      [280, 50],
      [600, 100],
      [matches.length, 10],
    ] as const)
      expect(await pageNames(offset, limit, "zq")).toEqual(matches.slice(offset, offset + limit));
    expect(await pageNames(0, 5, "zz")).toEqual([]);
    await store.close();
  });
});

describe("a name filter at a deep offset (D-411)", () => {
  it("is read in windows with turns of the event loop between them, and pages exactly", async () => {
    const store = new SqliteStore({ renderer: deploymentRenderer, path: ":memory:" });
    await store.migrate();
    const organizationId = randomUUID();
    const tenantId = randomUUID();
    await store.createOrganization({ id: organizationId, name: "o" });
    await store.createTenant({ id: tenantId, organizationId, name: "t" });
    // Every name matches: a dense needle, so a deep page walked the trigram index up to its offset in one statement.
    const names = Array.from({ length: 4_500 }, (_, i) => `seed-${i}`);
    await Promise.all(names.map((name) => store.createDeployment(newDeployment(tenantId, name), Date.now() * 1000)));
    const newestFirst = [...names].reverse();
    const cases = [
      { offset: 0, limit: 20, windowed: false },
      { offset: 1_980, limit: 20, windowed: false },
      { offset: 1_981, limit: 20, windowed: true },
      { offset: 4_000, limit: 1, windowed: true },
      { offset: 4_490, limit: 100, windowed: true },
    ];
    for (const { offset, limit, windowed } of cases) {
      let turns = 0;
      let reading = true;
      const tick = () => {
        if (!reading) return;
        turns += 1;
        setImmediate(tick);
      };
      setImmediate(tick);
      const page = await store.listDeploymentTexts(
        tenantId,
        { limit, offset, nameContains: "seed-" },
        Date.now() * 1000,
      );
      reading = false;
      const got = (JSON.parse(`[${await joinedPageTexts(page)}]`) as Array<{ name: string }>).map((d) => d.name);
      expect(got, `offset ${offset}`).toEqual(newestFirst.slice(offset, offset + limit));
      // Windows of 2,000 sequence numbers: at least one turn of the event loop between two of them.
      if (windowed) expect(turns, `offset ${offset}`).toBeGreaterThan(0);
      else expect(turns, `offset ${offset}`).toBe(0);
    }
    await store.close();
  });
});
