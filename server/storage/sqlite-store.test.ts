/** SQLite-specific properties (issue 3: Storage, performance): WAL, and the unfiltered page as an index range seek rather than an OFFSET scan. */
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filteredPage, SqliteStore, unfilteredPageSql } from "./sqlite-store.js";

describe("SqliteStore", () => {
  it("runs in WAL mode and serves unfiltered pages by index seek", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-store-"));
    const file = path.join(dir, "s.sqlite");
    const store = new SqliteStore({ path: file });
    await store.migrate();
    const inspect = new Database(file, { readonly: true });
    try {
      expect(inspect.pragma("journal_mode", { simple: true })).toBe("wal");
      const plan = (inspect.prepare(`EXPLAIN QUERY PLAN ${unfilteredPageSql}`).all("t", "t", 0, 20) as Array<{ detail: string }>).map((r) => r.detail);
      // A range seek on (tenant_id, seq): the offset bounds seq instead of skipping rows.
      expect(plan.some((d) => /SEARCH deployments USING INDEX .*\(tenant_id=\? AND seq<\?\)/.test(d))).toBe(true);
      expect(plan.some((d) => /SCAN deployments/.test(d))).toBe(false);
      expect(plan.some((d) => /USE TEMP B-TREE/.test(d))).toBe(false);

      // deployment_ids (with any other filter) looks the ids up by primary key instead of scanning the tenant.
      const byIds = filteredPage("t", { limit: 20, offset: 0, deploymentIds: ["a", "b"], statuses: ["READY"] }, 0);
      const idsPlan = (inspect.prepare(`EXPLAIN QUERY PLAN ${byIds.sql}`).all(...byIds.params) as Array<{ detail: string }>).map((r) => r.detail);
      expect(idsPlan.some((d) => /SEARCH deployments USING INDEX .*\(id=\?\)/.test(d))).toBe(true);
      expect(idsPlan.some((d) => /tenant_id=\?/.test(d))).toBe(false);
    } finally {
      inspect.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
