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
