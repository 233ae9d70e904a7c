/** Tests of the admin command and demo mode: demo data only on an empty database with DEMO on; admin-made keys work and are stored hashed. */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin, UsageError } from "./admin.js";
import { hashApiKey } from "./auth/api-keys.js";
import { bodyFor } from "./testing/fixtures.js";
import { acmeKey, startTestServer, type TestServer } from "./testing/test-server.js";

const servers: TestServer[] = [];
const reopenedDataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const dir of reopenedDataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("demo mode and the admin command", () => {
  it("with DEMO off nothing is seeded; an admin-made organization, tenant and key then work", async () => {
    const server = await startTestServer({ demo: false });
    servers.push(server);
    expect(await server.store.isEmpty()).toBe(true);
    expect((await server.request("GET", "/v2/deployments", { key: acmeKey })).status).toBe(401);

    const organization = await runAdmin(server.store, ["create-organization", "--name", "Initech"]);
    const organizationId = organization[0]!.split(" ")[1]!;
    const tenantA = (
      await runAdmin(server.store, ["create-tenant", "--organization", organizationId, "--name", "prod"])
    )[0]!.split(" ")[1]!;
    const tenantB = (
      await runAdmin(server.store, ["create-tenant", "--organization", organizationId, "--name", "dev"])
    )[0]!.split(" ")[1]!;
    const keyLines = await runAdmin(server.store, [
      "create-api-key",
      "--organization",
      organizationId,
      "--tenant",
      tenantA,
      "--tenant",
      tenantB,
    ]);
    const key = keyLines.at(-1)!;
    expect(key).toMatch(/^dk_live_[0-9a-f]{40}$/);
    expect((await server.store.findApiKeyByHash(hashApiKey(key)))?.tenantIds.sort()).toEqual([tenantA, tenantB].sort());

    const created = await server.request("POST", "/v2/deployments", {
      key,
      body: bodyFor("internal_template", "initech-app"),
    });
    expect(created.status).toBe(201);
    expect(created.body.tenant_id).toBe(tenantA);
    expect((await server.request("GET", "/v2/deployments", { key, tenant: tenantB })).body.resources).toEqual([]);
  });

  it("refuses bad admin input", async () => {
    const server = await startTestServer({ demo: false });
    servers.push(server);
    const cases = [
      [],
      ["launch-rockets"],
      ["create-organization"],
      ["create-tenant", "--organization", "not-a-uuid", "--name", "x"],
      ["create-api-key", "--organization", "0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40"],
      [
        "create-api-key",
        "--organization",
        "0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40",
        "--tenant",
        "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60",
      ],
    ];
    for (const argv of cases)
      await expect(runAdmin(server.store, argv), argv.join(" ")).rejects.toBeInstanceOf(UsageError);
  });

  it("seeds demo data once: a restart on the same database does not seed again", async () => {
    const first = await startTestServer({}, { keepDataDir: true });
    servers.push(first);
    expect((await first.request("GET", "/v2/deployments")).status).toBe(200);
    const dataDir = first.dataDir;
    reopenedDataDirs.push(dataDir);
    await first.close();
    servers.pop();
    if (process.env.TEST_DATABASE_URL) return; // PostgreSQL test servers get a fresh schema each start.
    const second = await startTestServer({ dataDir, sqlitePath: first.config.sqlitePath });
    servers.push(second);
    expect(second.logs.some((line) => line.includes("demo data seeded"))).toBe(false);
    expect((await second.request("GET", "/v2/deployments")).status).toBe(200);
  });
});
