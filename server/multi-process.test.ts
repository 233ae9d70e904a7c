/** Two server processes on one PostgreSQL database: a create on one is listed by the other, a page walk across both sees each deployment once, a name race across both has one winner. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "./testing/child-server.js";
import { bodyFor } from "./testing/fixtures.js";
import { freshSchemaName } from "./testing/schema-name.js";
import { dropSchema, send, testDatabaseUrl } from "./testing/test-server.js";

describe.skipIf(!testDatabaseUrl)("two processes on one PostgreSQL database", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "multi-process-"));
  const schema = freshSchemaName();
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    // Both start at once on an empty schema: migrations and demo seeding must not collide.
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: testDatabaseUrl as string,
      DATABASE_SCHEMA: schema,
      ENCRYPTION_KEY: "11".repeat(32),
    };
    [a, b] = await Promise.all([startChildServer({ env }), startChildServer({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.kill("SIGTERM"), b?.kill("SIGTERM")]);
    await dropSchema(schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves a create on one process from the other", async () => {
    const created = await send(a.url, "POST", "/v2/deployments", { body: bodyFor("internal_template", "made-on-a") });
    expect(created.status).toBe(201);
    const listed = await send(b.url, "GET", `/v2/deployments?deployment_ids=${created.body.id}`);
    expect(listed.body.resources.map((d: { name: string }) => d.name)).toEqual(["made-on-a"]);
    const provider = await send(b.url, "POST", "/v2/auth/providers", {
      body: {
        provider_id: "p-b",
        name: "n",
        client_id: "c",
        auth_url: "https://a.example",
        token_url: "https://t.example",
        client_secret: "x",
      },
    });
    expect(provider.status).toBe(200);
    const providers = await send(a.url, "GET", "/v2/auth/providers");
    expect(providers.body.map((p: { provider_id: string }) => p.provider_id)).toContain("p-b");
  });

  it("creates on both interleaved, then a page walk alternating between them sees each deployment once", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `walk-${i}`);
    const results = await Promise.all(
      names.map((name, i) =>
        send(i % 2 === 0 ? a.url : b.url, "POST", "/v2/deployments", { body: bodyFor("internal_template", name) }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const seen: string[] = [];
    let offset = 0;
    for (let page = 0; page < 100; page++) {
      const response = await send(page % 2 === 0 ? a.url : b.url, "GET", `/v2/deployments?limit=7&offset=${offset}`);
      seen.push(...response.body.resources.map((d: { name: string }) => d.name));
      if (response.body.resources.length < 7) break;
      offset = response.body.offset;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const name of names) expect(seen).toContain(name);
    expect(seen).toContain("made-on-a");
  });

  it("a name raced on both processes has exactly one winner", async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(i % 2 === 0 ? a.url : b.url, "POST", "/v2/deployments", { body: bodyFor("internal_template", "raced") }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(49);
  });
});
