/** D-280, D-413: a SQLite disk without space is a 503 with Retry-After and a 503 /healthz, never a 500; both recover once space returns (here SQLite's max_page_count stands for the disk). */
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

  it("answers creates 503, /healthz 503 full, reads 200, and recovers by itself", async () => {
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
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBe("2");
    expect(health.body).toEqual({ status: "unavailable", database: "full" });
    expect((await server.request("GET", deployments)).status).toBe(200);

    db.pragma("max_page_count = 1073741823");
    expect((await server.request("GET", "/healthz", { key: null })).body).toEqual({ status: "ok", database: "ok" });
    expect((await server.request("POST", deployments, { body: bodyFor("internal_template", "after") })).status).toBe(
      201,
    );
  });

  it("stays full while a large create fails, though smaller writes still fit (D-413)", async () => {
    // About 60 KB of secret values: more than the few pages left below, where an 8 KB probe still fits.
    const large = (name: string) => ({
      ...bodyFor("internal_template", name),
      secrets: Array.from({ length: 30 }, (_, i) => ({ name: `S${i}`, value: "v".repeat(1000) })),
    });
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pages = Number(db.pragma("page_count", { simple: true }));
    db.pragma(`max_page_count = ${pages + 6}`);
    const refused = await server.request("POST", deployments, { body: large("large-full") });
    expect(refused.status).toBe(503);
    // A small create still commits, yet a create of the size that failed cannot: /healthz stays not ok.
    expect((await server.request("POST", deployments, { body: bodyFor("internal_template", "small") })).status).toBe(
      201,
    );
    const health = await server.request("GET", "/healthz", { key: null });
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: "unavailable", database: "full" });

    db.pragma("max_page_count = 1073741823");
    expect((await server.request("GET", "/healthz", { key: null })).status).toBe(200);
    expect((await server.request("POST", deployments, { body: large("large-after") })).status).toBe(201);
  });
});
