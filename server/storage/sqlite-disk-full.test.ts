/** D-280: a SQLite disk without space is a 503 with Retry-After and a degraded /healthz, never a 500; both recover once space returns (here SQLite's max_page_count stands for the disk). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { bodyFor } from "../testing/fixtures.js";
import { startTestServer, type TestServer, testDatabaseUrl } from "../testing/test-server.js";
import type { SqliteStore } from "./sqlite-store.js";

const deployments = operation("createDeployment").path;

describe.skipIf(testDatabaseUrl !== undefined)("a full disk under SQLite", () => {
  let server: TestServer;
  let db: SqliteStore["db"];
  beforeAll(async () => {
    server = await startTestServer();
    db = (server.store as SqliteStore).db;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers creates 503, /healthz degraded, reads 200, and recovers by itself", async () => {
    expect((await server.request("POST", deployments, { body: bodyFor("internal_template", "before") })).status).toBe(
      201,
    );
    // No page may be added to the file: every write that needs one fails with SQLITE_FULL.
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pages = Number(db.pragma("page_count", { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const create = await server.request("POST", deployments, { body: bodyFor("internal_template", `full-${i}`) });
      statuses.push(create.status);
      if (create.status === 503) {
        expect(create.headers.get("retry-after")).toBe("2");
        expect(create.body).toMatchObject({ type: "urn:deployment-service:problem:service-unavailable" });
        break;
      }
    }
    expect(statuses.at(-1)).toBe(503);
    expect(statuses).not.toContain(500);
    const health = await server.request("GET", "/healthz", { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "degraded", database: "full" });
    expect((await server.request("GET", deployments)).status).toBe(200);

    db.pragma("max_page_count = 1073741823");
    expect((await server.request("GET", "/healthz", { key: null })).body).toEqual({ status: "ok", database: "ok" });
    expect((await server.request("POST", deployments, { body: bodyFor("internal_template", "after") })).status).toBe(
      201,
    );
  });
});
