/** Tests of `--fresh` (D-330): a used SQLite database starts over on the demo data; a PostgreSQL one is refused. */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "./config.js";
import { removeEmbeddedDatabase } from "./fresh-start.js";
import { bodyFor } from "./testing/fixtures.js";
import { startTestServer, type TestServer, testDatabaseUrl } from "./testing/test-server.js";

const servers: TestServer[] = [];
const dataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("--fresh", () => {
  it.skipIf(testDatabaseUrl !== undefined)(
    "a restart after it lists none of the deployments created before, with the demo keys seeded again",
    async () => {
      const first = await startTestServer({}, { keepDataDir: true });
      dataDirs.push(first.dataDir);
      const created = await first.request("POST", "/v2/deployments", {
        body: bodyFor("internal_container", "fresh-start"),
      });
      expect(created.status).toBe(201);
      await first.close();

      expect(removeEmbeddedDatabase(first.config)).toBe(first.config.sqlitePath);
      const second = await startTestServer({ dataDir: first.dataDir, sqlitePath: first.config.sqlitePath });
      servers.push(second);
      expect(second.logs.some((line) => line.includes("demo data seeded"))).toBe(true);
      const listed = await second.request("GET", "/v2/deployments");
      expect(listed.status).toBe(200);
      expect(listed.body.resources).toEqual([]);
    },
  );

  it("refuses a PostgreSQL database", () => {
    expect(() => removeEmbeddedDatabase({ databaseUrl: "postgres://127.0.0.1/x", sqlitePath: "/nonexistent" })).toThrow(
      ConfigError,
    );
  });
});
