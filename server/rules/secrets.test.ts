/** Tests of secret handling (D-54, D-55): a canary client_secret and secret value appear in no response, no log line and not in the database in plain text, yet are stored sealed. */
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentSecretContext, providerSecretContext } from "../crypto/seal-context.js";
import { SecretBox } from "../crypto/secret-box.js";
import { bodyFor, ids, providerBody } from "../testing/fixtures.js";
import { inspectStore } from "../testing/store-inspector.js";
import { startTestServer, type TestServer, testDatabaseUrl } from "../testing/test-server.js";

const clientSecretCanary = `canary-client-${Math.random().toString(36).slice(2)}`;
const secretValueCanary = `canary-value-${Math.random().toString(36).slice(2)}`;

let server: TestServer;
const responses: string[] = [];
beforeAll(async () => {
  server = await startTestServer({ logLevel: "trace" });
});
afterAll(async () => {
  await server?.close();
});

/** Every byte the database holds, as text. */
async function databaseText(): Promise<string> {
  if (!testDatabaseUrl) {
    return ["", "-wal", "-shm"]
      .map((suffix) => server.config.sqlitePath + suffix)
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file).toString("latin1"))
      .join("\n");
  }
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [
      server.schema,
    ]);
    const parts: string[] = [];
    for (const { table_name } of tables.rows as Array<{ table_name: string }>) {
      const rows = await client.query(`SELECT t::text AS row FROM ${server.schema}.${table_name} t`);
      parts.push(...rows.rows.map((r: { row: string }) => r.row));
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

describe("secrets", () => {
  it("never shows the canaries, and stores them sealed", async () => {
    const provider = await server.request("POST", "/v2/auth/providers", {
      body: providerBody("canary", { client_secret: clientSecretCanary }),
    });
    expect(provider.status).toBe(200);
    responses.push(provider.text);

    const body = bodyFor("internal_template", "canary-deployment") as Record<string, unknown>;
    body.secrets = [{ name: "CANARY", value: secretValueCanary }];
    const created = await server.request("POST", "/v2/deployments", {
      body,
      headers: { "X-Request-Id": "canary-request" },
    });
    expect(created.status).toBe(201);
    expect(created.body.secrets).toEqual([{ name: "CANARY", value: "********" }]);
    responses.push(created.text);

    // The failure paths echo nothing of the body either.
    const conflict = await server.request("POST", "/v2/deployments", { body });
    expect(conflict.status).toBe(409);
    responses.push(conflict.text);
    const invalid = await server.request("POST", "/v2/deployments", {
      body: {
        ...body,
        secrets: [{ name: "CANARY", value: secretValueCanary, extra: [secretValueCanary] }],
        name: "bad_name",
      },
    });
    expect(invalid.status).toBe(422);
    responses.push(invalid.text);
    const malformed = await server.request("POST", "/v2/auth/providers", {
      rawBody: `{"client_secret": "${clientSecretCanary}", `,
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    responses.push(malformed.text);
    // A syntax error right after the secret: JSON.parse's own message would quote it.
    const quoted = await server.request("POST", "/v2/deployments", {
      rawBody: `{"secrets": [{"name": "A", "value": "${secretValueCanary}" x}]}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(quoted.status).toBe(400);
    responses.push(quoted.text);

    responses.push((await server.request("GET", "/v2/deployments?limit=100")).text);
    responses.push((await server.request("GET", "/v2/auth/providers")).text);

    for (const text of responses) {
      expect(text).not.toContain(clientSecretCanary);
      expect(text).not.toContain(secretValueCanary);
    }
    expect(server.logs.length).toBeGreaterThan(5);
    for (const line of server.logs) {
      expect(line).not.toContain(clientSecretCanary);
      expect(line).not.toContain(secretValueCanary);
      expect(line).not.toContain("dk_demo_acme_5f2b9c7e1d3a4b6c8e0f");
    }
    const stored = await databaseText();
    expect(stored).toContain("canary-deployment");
    expect(stored).not.toContain(clientSecretCanary);
    expect(stored).not.toContain(secretValueCanary);

    // Sealed, not dropped: the configured key opens them.
    const box = new SecretBox(server.config.encryptionKey as Buffer);
    const [deployment] = await inspectStore(server.store).listDeployments(
      ids.acmeProduction,
      { limit: 1, offset: 0, nameContains: "canary-deployment" },
      Date.now() * 1000,
    );
    const secretContext = deploymentSecretContext(
      "0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40",
      ids.acmeProduction,
      deployment!.deployment.id,
      deployment!.secrets[0]!.name,
    );
    expect(box.decrypt(deployment!.secrets[0]!.sealedValue, secretContext)).toBe(secretValueCanary);
    const [sealedProvider] = (await server.store.listOAuthProviders("0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40")).filter(
      (p) => p.provider.provider_id === "canary",
    );
    const providerContext = providerSecretContext("0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40", sealedProvider!.provider.id);
    expect(box.decrypt(sealedProvider!.sealedClientSecret!, providerContext)).toBe(clientSecretCanary);
  });
});
