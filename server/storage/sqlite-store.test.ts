/** SQLite-specific properties (Storage, performance): WAL, the unfiltered page as an index range seek rather than an OFFSET scan, name_contains from the trigram index, texts rendered for older rows. */

import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { presentDeployment } from "../presenters/deployment.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { newDeployment } from "../testing/new-deployment.js";
import { joinedPageTexts } from "../testing/page-texts.js";
import { inspectStore } from "../testing/store-inspector.js";
import { deploymentColumns, deploymentTextColumns } from "./row-mapping.js";
import { filteredPage, SqliteStore, unfilteredPage } from "./sqlite-store.js";

describe("SqliteStore", () => {
  // SQLite prepares a statement with a bound LIMIT again at every run: the limit is part of the text.
  it.each([
    { given: "no filter", want: unfilteredPage(deploymentColumns, 20) },
    { given: "a status filter", want: filteredPage("t", { limit: 20, offset: 40, statuses: ["READY"] }, 0).sql },
    { given: "deployment ids", want: filteredPage("t", { limit: 7, offset: 0, deploymentIds: ["a"] }, 0).sql },
    {
      given: "a name of 3 characters or more",
      want: filteredPage("t", { limit: 100, offset: 5, nameContains: "abc" }, 0).sql,
    },
    { given: "a short name", want: filteredPage("t", { limit: 1, offset: 0, nameContains: "a" }, 0).sql },
  ])("writes the limit of a page with $given into its SQL, never as a parameter", ({ want }) => {
    expect(want).toMatch(/LIMIT \d+/);
    expect(want).not.toMatch(/LIMIT \?/);
  });

  it("runs in WAL mode and serves unfiltered pages by index seek", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-store-"));
    const file = path.join(dir, "s.sqlite");
    const store = new SqliteStore({ renderer: deploymentRenderer, path: file });
    await store.migrate();
    const inspect = new Database(file, { readonly: true });
    try {
      expect(inspect.pragma("journal_mode", { simple: true })).toBe("wal");
      const plan = (
        inspect.prepare(`EXPLAIN QUERY PLAN ${unfilteredPage(deploymentColumns, 20)}`).all("t", "t", 0) as Array<{
          detail: string;
        }>
      ).map((r) => r.detail);
      // A range seek on (tenant_id, seq): the offset bounds seq instead of skipping rows.
      expect(plan.some((d) => /SEARCH deployments USING INDEX .*\(tenant_id=\? AND seq<\?\)/.test(d))).toBe(true);
      expect(plan.some((d) => /SCAN deployments/.test(d))).toBe(false);
      expect(plan.some((d) => /USE TEMP B-TREE/.test(d))).toBe(false);

      // deployment_ids (with any other filter) looks the ids up by primary key instead of scanning the tenant.
      const byIds = filteredPage("t", { limit: 20, offset: 0, deploymentIds: ["a", "b"], statuses: ["READY"] }, 0);
      const idsPlan = (
        inspect.prepare(`EXPLAIN QUERY PLAN ${byIds.sql}`).all(...byIds.params) as Array<{ detail: string }>
      ).map((r) => r.detail);
      expect(idsPlan.some((d) => /SEARCH deployments USING INDEX .*\(id=\?\)/.test(d))).toBe(true);
      expect(idsPlan.some((d) => /tenant_id=\?/.test(d))).toBe(false);

      // name_contains of 3 characters or more alone: the tenant's matches newest first from the FTS5
      // trigram table (its rowid order, no sort), the page's rows by primary key.
      const byName = filteredPage("t", { limit: 20, offset: 0, nameContains: "777" }, 0);
      const namePlan = (
        inspect.prepare(`EXPLAIN QUERY PLAN ${byName.sql}`).all(...byName.params) as Array<{ detail: string }>
      ).map((r) => r.detail);
      expect(namePlan.some((d) => /SCAN deployments_name_index VIRTUAL TABLE/.test(d))).toBe(true);
      expect(namePlan.some((d) => /SEARCH deployments USING INDEX .*\(id=\?\)/.test(d))).toBe(true);
      expect(namePlan.filter((d) => /USE TEMP B-TREE/.test(d))).toHaveLength(1);

      // With another filter: the index's matches in its order, each one's row checked by primary key.
      const byNameAndStatus = filteredPage("t", { limit: 20, offset: 0, nameContains: "777", statuses: ["READY"] }, 0);
      const bothPlan = (
        inspect.prepare(`EXPLAIN QUERY PLAN ${byNameAndStatus.sql}`).all(...byNameAndStatus.params) as Array<{
          detail: string;
        }>
      ).map((r) => r.detail);
      expect(bothPlan.some((d) => /SCAN deployments_name_index VIRTUAL TABLE/.test(d))).toBe(true);
      expect(bothPlan.some((d) => /SEARCH deployments USING INDEX .*\(id=\?\)/.test(d))).toBe(true);
      // The matches come newest first from the index and are not sorted: the one sort is the page's own (D-93).
      expect(bothPlan.filter((d) => /USE TEMP B-TREE/.test(d))).toHaveLength(1);
    } finally {
      inspect.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A migrated store on a file of a fresh folder, with one organization and one tenant. */
async function storeWithTenant(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, "s.sqlite");
  const organizationId = randomUUID();
  const tenantId = randomUUID();
  const store = new SqliteStore({ renderer: deploymentRenderer, path: file });
  await store.migrate();
  await store.createOrganization({ id: organizationId, name: "o" });
  await store.createTenant({ id: tenantId, organizationId, name: "t" });
  return { dir, file, tenantId, store };
}

describe("SqliteStore checkpoints (D-91)", () => {
  it("lets the WAL grow past SQLite's default of 1,000 pages before it checkpoints", async () => {
    const { dir, file, tenantId, store } = await storeWithTenant("sqlite-checkpoint-");
    try {
      // Group commits of 20 until about 2,000 pages are written: a checkpoint at 1,000 pages would have
      // started the WAL over, so its file would not have grown much past 1,000 pages.
      for (let batch = 0; batch < 50; batch++) {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.createDeployment(newDeployment(tenantId, `d-${batch}-${i}`), Date.now() * 1000),
          ),
        );
      }
      const walPages = fs.statSync(`${file}-wal`).size / 4096;
      expect(walPages).toBeGreaterThan(1_500);
      expect(walPages).toBeLessThan(4_000);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SqliteStore texts", () => {
  it("renders the texts of rows stored without one when it opens", async () => {
    const opened = await storeWithTenant("sqlite-texts-");
    const { dir, file, tenantId } = opened;
    let store = opened.store;
    try {
      for (const [name, readyAfterUs] of [
        ["old-ready", 0],
        ["old-waiting", 3_600_000_000],
      ] as const) {
        await store.createDeployment(newDeployment(tenantId, name, { readyAfterUs }), Date.now() * 1000);
      }
      await store.promoteReadyDeployments(Date.now() * 1000 + 1, 10);
      await store.close();
      // As a database written before migration 2 holds them.
      const raw = new Database(file);
      raw.exec("UPDATE deployments SET rendered = NULL");
      raw.close();
      store = new SqliteStore({ renderer: deploymentRenderer, path: file });
      await store.migrate();
      const now = Date.now() * 1000;
      const texts = await store.listDeploymentTexts(tenantId, { limit: 10, offset: 0 }, now);
      const records = await inspectStore(store).listDeployments(tenantId, { limit: 10, offset: 0 }, now);
      expect(records.map((r) => r.deployment.status)).toEqual(["AWAITING_DATABASE", "READY"]);
      expect(JSON.parse(`[${await joinedPageTexts(texts)}]`)).toEqual(records.map(presentDeployment));
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Runs one page's SQL on a database file in a fresh process, with temporary structures in memory as
 * the store keeps them and a 1 MiB page cache, and returns its rows and how far the process's peak
 * resident memory (VmHWM) rose while it ran.
 */
function pageMemory(file: string, page: { sql: string; params: unknown[] }): { rows: number; peakGrowthKiB: number } {
  const probe = `
    import { readFileSync } from "node:fs";
    import { createRequire } from "node:module";
    const Database = createRequire(process.cwd() + "/")("better-sqlite3");
    const { file, sql, params } = JSON.parse(process.env.PAGE_PROBE);
    const peakKiB = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
    const db = new Database(file, { readonly: true });
    db.pragma("cache_size = -1024");
    db.pragma("temp_store = MEMORY");
    const statement = db.prepare(sql);
    globalThis.gc();
    const before = peakKiB();
    const rows = statement.all(...params).length;
    console.log(JSON.stringify({ rows, peakGrowthKiB: peakKiB() - before }));`;
  const output = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", probe], {
    env: { ...process.env, PAGE_PROBE: JSON.stringify({ file, ...page }) },
    encoding: "utf8",
  });
  return JSON.parse(output) as { rows: number; peakGrowthKiB: number };
}

describe("SqliteStore filtered pages (D-93)", () => {
  it.runIf(process.platform === "linux")(
    "holds no match outside the page while it pages a name filter with another filter",
    async () => {
      const { dir, file, tenantId, store } = await storeWithTenant("sqlite-sorted-page-");
      try {
        const count = 12_000;
        for (let batch = 0; batch < count / 500; batch++) {
          await Promise.all(
            Array.from({ length: 500 }, (_, i) =>
              store.createDeployment(newDeployment(tenantId, `deployment-${batch}-${i}`, { readyAfterUs: 0 }), 0),
            ),
          );
        }
        await store.close();
        // name_contains with another filter, deep into the matches.
        // Sorted, the matches before this offset would be held with their texts: about 10 MB.
        const query = { limit: 10, offset: count - 10, nameContains: "deployment", statuses: ["READY"] };
        const measured = pageMemory(file, filteredPage(tenantId, query, Date.now() * 1000, deploymentTextColumns));
        expect(measured.rows).toBe(10);
        // About 1.5 MB alone; up to 4.5 MB while the whole suite runs beside it (the probe's garbage collector gets
        // less CPU). Sorted, it was about 10 MB.
        expect(measured.peakGrowthKiB).toBeLessThan(6 * 1024);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("database file modes (D-117)", () => {
  it("creates the database, its -wal and its -shm readable by the owner only, and narrows older ones", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-modes-"));
    const file = path.join(dir, "service.sqlite");
    const modes = () =>
      ["", "-wal", "-shm"].map((suffix) => (fs.statSync(`${file}${suffix}`).mode & 0o777).toString(8));
    try {
      const store = new SqliteStore({ renderer: deploymentRenderer, path: file });
      await store.migrate();
      expect(modes()).toEqual(["600", "600", "600"]);
      await store.close();
      // As an older version left them.
      fs.chmodSync(file, 0o644);
      const reopened = new SqliteStore({ renderer: deploymentRenderer, path: file });
      await reopened.migrate();
      expect(modes()).toEqual(["600", "600", "600"]);
      await reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
