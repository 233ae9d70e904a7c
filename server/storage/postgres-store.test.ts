/** The PostgreSQL adapter's plans that the Store contract cannot see (with TEST_DATABASE_URL, in a fresh schema). */

import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { newDeployment } from "../testing/new-deployment.js";
import { freshSchemaName } from "../testing/schema-name.js";
import { dropSchema, testDatabaseUrl } from "../testing/test-server.js";
import { PostgresStore, readyBatchPlan, readyBatchSql } from "./postgres-store.js";

describe.skipIf(!testDatabaseUrl)("PostgresStore: the provisioning sweep", () => {
  const schema = freshSchemaName();
  const tenantId = randomUUID();
  let store: PostgresStore;
  let client: pg.Client;

  beforeAll(async () => {
    store = new PostgresStore({
      renderer: deploymentRenderer,
      connectionString: testDatabaseUrl as string,
      schema,
      poolSize: 2,
    });
    await store.migrate();
    const organizationId = randomUUID();
    await store.createOrganization({ id: organizationId, name: "sweep" });
    await store.createTenant({ id: tenantId, organizationId, name: "sweep" });
    client = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${schema}` });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await store?.close();
    await dropSchema(schema);
  });

  const deployment = (name: string, readyAfterUs: number) => newDeployment(tenantId, name, { readyAfterUs });

  it("promotes the earliest ready first", async () => {
    const nowUs = Date.now() * 1000;
    const late = await store.createDeployment(deployment("late", 2_000), nowUs);
    const early = await store.createDeployment(deployment("early", 1_000), nowUs);
    expect(await store.promoteReadyDeployments(late.readyUs, 1)).toBe(1);
    const status = async (id: string) =>
      (await client.query("SELECT status FROM deployments WHERE id = $1", [id])).rows[0]?.status;
    expect(await status(early.deployment.id)).toBe("READY");
    expect(await status(late.deployment.id)).toBe("AWAITING_DATABASE");
  });

  it("reads its batch with a plain index scan on a table never analysed (no bitmap scan over dead versions)", async () => {
    // 2,000 rows promoted and never vacuumed (copies of a created one): their old versions stay in
    // deployments_awaiting. Without readyBatchPlan, such a table is read with a bitmap scan (then a sort) from about 1,000 rows.
    const nowUs = Date.now() * 1000;
    const created = await store.createDeployment(deployment("copied", 0), nowUs);
    await client.query(
      `INSERT INTO deployments (id, tenant_id, seq, name, name_lower, source, status, source_config, source_revision_config,
         secrets, latest_revision_id, created_us, updated_us, ready_us, rendered)
       SELECT gen_random_uuid()::text, tenant_id, seq + n, name || n, name_lower || n, source, status, source_config,
         source_revision_config, secrets, latest_revision_id, created_us + n, updated_us + n, ready_us + n, rendered
       FROM deployments, generate_series(1, 2000) AS n WHERE id = $1`,
      [created.deployment.id],
    );
    await client.query("UPDATE deployments SET status = 'READY' WHERE status = 'AWAITING_DATABASE'");
    const explain = async (sql: string) => {
      await client.query("BEGIN");
      try {
        await client.query(readyBatchPlan);
        const plan = await client.query(`EXPLAIN ${sql.replace("$1", `${nowUs}`).replace("$2", "500")}`);
        return plan.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
      } finally {
        await client.query("ROLLBACK");
      }
    };
    const plan = await explain(readyBatchSql);
    expect(plan).toMatch(/Index Scan using deployments_awaiting/);
    expect(plan).not.toMatch(/Bitmap|Seq Scan|Sort/);
    // The settings are the transaction's own.
    expect((await client.query("SHOW enable_bitmapscan")).rows[0]?.enable_bitmapscan).toBe("on");
  });
});

describe.skipIf(!testDatabaseUrl)("PostgresStore: migrations started at once", () => {
  const schema = freshSchemaName();
  afterAll(() => dropSchema(schema));

  it("eight stores migrating one fresh schema together all succeed, and each migration is applied once", async () => {
    const stores = Array.from(
      { length: 8 },
      () =>
        new PostgresStore({
          renderer: deploymentRenderer,
          connectionString: testDatabaseUrl as string,
          schema,
          poolSize: 1,
        }),
    );
    try {
      const results = await Promise.allSettled(stores.map((store) => store.migrate()));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const client = new pg.Client({
        connectionString: testDatabaseUrl,
        options: `-c search_path=${schema}`,
      });
      await client.connect();
      try {
        const rows = (await client.query("SELECT version, count(*) AS n FROM schema_migrations GROUP BY version")).rows;
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
