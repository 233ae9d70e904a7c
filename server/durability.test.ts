/** Durability (an acknowledged write is never lost): creates acknowledged before a `kill -9` of the server process are all there after a restart. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "./testing/child-server.js";
import { bodyFor } from "./testing/fixtures.js";
import { freshSchemaName } from "./testing/schema-name.js";
import { dropSchema, send, testDatabaseUrl } from "./testing/test-server.js";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "durability-"));
const schema = testDatabaseUrl ? freshSchemaName() : undefined;
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl, DATABASE_SCHEMA: schema as string } : {}),
};
const children: ChildServer[] = [];

afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null) await child.kill("SIGKILL");
  if (schema) await dropSchema(schema);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`durability on ${testDatabaseUrl ? "PostgreSQL" : "SQLite"}`, () => {
  it("keeps every acknowledged create across kill -9 and restart", async () => {
    const first = await startChildServer({ env });
    children.push(first);
    const acknowledged: string[] = [];
    // Creates in flight when the process dies: those answered 201 must survive.
    const inFlight = Array.from({ length: 60 }, (_, i) =>
      send(first.url, "POST", "/v2/deployments", { body: bodyFor("internal_template", `durable-${i}`) }).then(
        (r) => {
          if (r.status === 201) acknowledged.push(r.body.id);
        },
        () => undefined,
      ),
    );
    await inFlight[20];
    expect(await first.kill("SIGKILL")).toBe("SIGKILL");
    await Promise.all(inFlight);
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = await startChildServer({ env });
    children.push(second);
    const listed: string[] = [];
    for (let offset = 0; ; ) {
      const page = await send(second.url, "GET", `/v2/deployments?limit=100&offset=${offset}`);
      expect(page.status).toBe(200);
      listed.push(...page.body.resources.map((d: { id: string }) => d.id));
      if (page.body.resources.length < 100) break;
      offset = page.body.offset;
    }
    for (const id of acknowledged) expect(listed).toContain(id);
    // The demo data was not seeded twice and the store is consistent.
    expect(new Set(listed).size).toBe(listed.length);
    expect(second.lines().some((line) => line.includes("demo data seeded"))).toBe(false);
    const stopped = await second.kill("SIGTERM");
    expect(stopped).toBe(0);
  });
});
