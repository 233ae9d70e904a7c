/** PostgreSQL adapter of the Store (Storage): pg pool with timeouts, migrations under an advisory lock, unique constraints and row locks instead of in-process locks. */
import pg from "pg";
import { type Clock, nowMicros } from "../domain/clock.js";
import type { DeploymentRenderer, StoredText } from "../domain/deployment-renderer.js";
import type {
  ApiKeyRecord,
  DeploymentQuery,
  NewDeployment,
  OAuthProviderRecord,
  OrganizationRecord,
  TenantRecord,
} from "../domain/records.js";
import { isUnfiltered } from "../domain/records.js";
import { LimitReached, UniqueViolation } from "../domain/store-errors.js";
import { isDatabaseUnavailable } from "../errors/database-unavailable.js";
import { filterConditions } from "./deployment-filters.js";
import { migrations } from "./migrations.js";
import { inlineTextColumns, readSlices, sliceSeqs, weighedColumns } from "./page-slices.js";
import { provisionedSql } from "./provisioned-sql.js";
import {
  createdDeployment,
  deploymentColumns,
  deploymentInsertColumns,
  deploymentInsertValues,
  deploymentTextColumns,
  newDeploymentRecord,
  oauthProviderInsertColumns,
  oauthProviderInsertValues,
  toDeploymentRecord,
  toOAuthProviderRecord,
} from "./row-mapping.js";
import {
  type CreatedDeployment,
  type DatabaseState,
  type PageTexts,
  resealedSecrets,
  type SealOwner,
  type SlicedDeploymentTexts,
  type Store,
} from "./store.js";

type Row = Record<string, unknown>;

interface PostgresStoreOptions {
  /** Renders the deployment texts the store keeps (the presenters' deploymentRenderer). */
  renderer: DeploymentRenderer;
  connectionString: string;
  /** The clock of the times the store stamps itself (created_us of organizations, tenants, keys; applied_us), in µs. */
  clock?: Clock;
  /** Schema to work in (created when missing); tests use a fresh one per run. */
  schema?: string;
  poolSize?: number;
}

/** Any number that tells this service's migration lock apart from other advisory locks. */
const migrationLockKey = 727_001;

/**
 * The sweep's batch, oldest ready first, read with a plain index scan of deployments_awaiting whatever the
 * statistics say (readyBatchPlan). Every promotion leaves the row's old AWAITING_DATABASE version in that
 * partial index until VACUUM (autovacuum may be off, or not there yet after a bulk load). A plain index scan
 * marks those entries dead the first time it meets them, and later sweeps skip them without reading the
 * table; a bitmap scan (the plan on a table never analysed, from about 1,000 rows) marks nothing and visits
 * every dead version's heap page on every sweep: after 100,000 promotions, 70-130 ms of database time each
 * 100 ms (READY_AFTER_MS=100), which took a core from the list requests. A sequential scan (the plan when
 * the statistics say many rows await) reads the whole table each time.
 */
export const readyBatchSql = `SELECT id, rendered, latest_revision_id, ready_us FROM deployments WHERE ${provisionedSql("$1")} ORDER BY ready_us LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** The planner settings, for the sweep's transaction only, that leave readyBatchSql the index scan. */
export const readyBatchPlan = "SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off";

/** Rows of `deploymentTextColumns` as the renderer reads them. */
function storedTexts(rows: Row[]): StoredText[] {
  return rows.map((row) => ({
    text: row.rendered as string,
    status: row.status,
    readyUs: Number(row.ready_us),
    latestRevisionId: row.latest_revision_id as string | null,
  }));
}

export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  private readonly pool: pg.Pool;
  private readonly renderer: DeploymentRenderer;
  private readonly clock: Clock;

  constructor(private readonly options: PostgresStoreOptions) {
    this.renderer = options.renderer;
    this.clock = options.clock ?? nowMicros;
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema))
      throw new Error("schema must be a plain lower-case identifier");
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
      query_timeout: 20_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client that loses its connection must not crash the process; the pool replaces it.
    this.pool.on("error", () => undefined);
  }

  /** One statement, prepared once per connection under a name given per SQL text (D-83); the test inspector reads through it too. */
  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query({ name: this.statementName(sql), text: sql, values: params })).rows as Row[];
    } catch (error) {
      throw translate(error);
    }
  }

  private readonly statementNames = new Map<string, string>();

  private statementName(sql: string): string {
    let name = this.statementNames.get(sql);
    if (!name) {
      name = `s${this.statementNames.size + 1}`;
      this.statementNames.set(sql, name);
    }
    return name;
  }

  /** Runs work in one transaction on one client. */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (client) => {
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw translate(error);
      }
    });
  }

  /**
   * Runs work on a client held from the pool. The pool listens for a lost connection only on its idle
   * clients: a held client whose connection ends (PostgreSQL stopped, D-81) emits 'error', which unheard
   * ends the process. Heard here, the work's query fails with it (503) and the client is discarded, not reused.
   */
  private async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on("error", onError);
    try {
      return await work(client);
    } catch (error) {
      // A connection that failed mid-work is not reused.
      lost ??= isDatabaseUnavailable(error) ? (error as Error) : undefined;
      throw error;
    } finally {
      client.off("error", onError);
      client.release(lost);
    }
  }

  async migrate(): Promise<void> {
    await this.withClient(async (client) => {
      // Several processes may start at once: one migrates, the others wait and then find nothing to do.
      // The schema is made under the lock too: two concurrent CREATE SCHEMA IF NOT EXISTS can both miss it and collide.
      await client.query("SELECT pg_advisory_lock($1)", [migrationLockKey]);
      try {
        if (this.options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.options.schema}`);
        await client.query(
          "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us BIGINT NOT NULL)",
        );
        const applied = new Set(
          (await client.query("SELECT version FROM schema_migrations")).rows.map((r: Row) => Number(r.version)),
        );
        for (const migration of migrations) {
          if (applied.has(migration.version)) continue;
          await client.query("BEGIN");
          try {
            await client.query(await migration.sql("postgres"));
            await client.query("INSERT INTO schema_migrations (version, name, applied_us) VALUES ($1, $2, $3)", [
              migration.version,
              migration.name,
              this.clock(),
            ]);
            await client.query("COMMIT");
          } catch (error) {
            await client.query("ROLLBACK");
            throw error;
          }
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [migrationLockKey]);
      }
    });
    await this.renderMissingTexts();
  }

  /** Stores the response text of deployments written before texts were stored (migration 2), a batch per statement. */
  private async renderMissingTexts(): Promise<void> {
    for (;;) {
      const rows = await this.query(`SELECT ${deploymentColumns} FROM deployments WHERE rendered IS NULL LIMIT 500`);
      if (rows.length === 0) return;
      // As stored, not as of now: reads derive READY from the time.
      const texts = rows.map((row) => this.renderer.text(toDeploymentRecord(row, Number.NEGATIVE_INFINITY)));
      // Only where the status is still the one rendered (a sweep elsewhere may have promoted it; the next batch renders it again).
      await this.query(
        `UPDATE deployments d SET rendered = v.rendered FROM unnest($1::text[], $2::text[], $3::text[]) AS v(id, rendered, status)
         WHERE d.id = v.id AND d.rendered IS NULL AND d.status = v.status`,
        [rows.map((row) => String(row.id)), texts, rows.map((row) => String(row.status))],
      );
    }
  }

  async ping(): Promise<DatabaseState> {
    // A lock held elsewhere makes a PostgreSQL write wait on its connection, never on the event loop.
    await this.pool.query("SELECT 1");
    return "ok";
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async isEmpty(): Promise<boolean> {
    return (await this.query("SELECT 1 FROM organizations LIMIT 1")).length === 0;
  }

  async metaGetOrSet(key: string, value: string): Promise<string> {
    await this.query("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [key, value]);
    return String((await this.query("SELECT value FROM meta WHERE key = $1", [key]))[0]?.value);
  }

  async createOrganization(o: OrganizationRecord): Promise<void> {
    await this.query("INSERT INTO organizations (id, name, created_us) VALUES ($1, $2, $3)", [
      o.id,
      o.name,
      this.clock(),
    ]);
  }

  async createTenant(t: TenantRecord): Promise<void> {
    await this.transaction(async (client) => {
      await client.query("INSERT INTO tenants (id, organization_id, name, created_us) VALUES ($1, $2, $3, $4)", [
        t.id,
        t.organizationId,
        t.name,
        this.clock(),
      ]);
      await client.query("INSERT INTO tenant_counters (tenant_id) VALUES ($1)", [t.id]);
    });
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    const row = (await this.query("SELECT id, organization_id, name FROM tenants WHERE id = $1", [id]))[0];
    return row && { id: String(row.id), organizationId: String(row.organization_id), name: String(row.name) };
  }

  async createApiKey(k: ApiKeyRecord): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(
        "INSERT INTO api_keys (id, organization_id, key_hash, label, default_tenant_id, created_us) VALUES ($1, $2, $3, $4, $5, $6)",
        [k.id, k.organizationId, k.keyHash, k.label, k.defaultTenantId, this.clock()],
      );
      for (const tenantId of new Set([k.defaultTenantId, ...k.tenantIds])) {
        await client.query("INSERT INTO api_key_tenants (api_key_id, tenant_id) VALUES ($1, $2)", [k.id, tenantId]);
      }
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.query(
      `SELECT k.id, k.organization_id, k.key_hash, k.label, k.default_tenant_id,
              ARRAY(SELECT t.tenant_id FROM api_key_tenants t WHERE t.api_key_id = k.id) AS tenant_ids
       FROM api_keys k WHERE k.key_hash = $1`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: String(row.id),
      organizationId: String(row.organization_id),
      keyHash: String(row.key_hash),
      label: String(row.label),
      defaultTenantId: String(row.default_tenant_id),
      tenantIds: (row.tenant_ids as string[]).map(String),
    };
  }

  async insertOAuthProvider(p: OAuthProviderRecord, maxPerOrganization: number): Promise<void> {
    await this.transaction(async (client) => {
      // The organization's row locked: its creates are counted and inserted one at a time (D-112).
      await client.query("SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE", [p.provider.organization_id]);
      const [{ count }] = (
        await client.query("SELECT count(*)::int AS count FROM oauth_providers WHERE organization_id = $1", [
          p.provider.organization_id,
        ])
      ).rows as [{ count: number }];
      if (count >= maxPerOrganization) throw new LimitReached(maxPerOrganization);
      const values = oauthProviderInsertValues(p, "native");
      await client.query(
        `INSERT INTO oauth_providers (${oauthProviderInsertColumns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(", ")})`,
        values,
      );
    });
  }

  async resealUnbound(reseal: (sealed: string, owner: SealOwner) => string): Promise<number> {
    return this.transaction(async (client) => {
      let count = 0;
      const providers = await client.query(
        "SELECT id, organization_id, sealed_client_secret FROM oauth_providers WHERE sealed_client_secret LIKE 'v1.%' FOR UPDATE",
      );
      for (const p of providers.rows as Row[]) {
        const owner = {
          kind: "provider",
          organizationId: String(p.organization_id),
          providerId: String(p.id),
        } as const;
        await client.query("UPDATE oauth_providers SET sealed_client_secret = $1 WHERE id = $2", [
          reseal(String(p.sealed_client_secret), owner),
          p.id,
        ]);
        count += 1;
      }
      const deployments = await client.query(
        `SELECT d.id, d.tenant_id, t.organization_id, d.secrets FROM deployments d JOIN tenants t ON t.id = d.tenant_id
         WHERE d.secrets LIKE '%"v1.%' FOR UPDATE OF d`,
      );
      for (const d of deployments.rows as Row[]) {
        const owner = {
          organizationId: String(d.organization_id),
          tenantId: String(d.tenant_id),
          deploymentId: String(d.id),
        };
        const secrets = resealedSecrets(String(d.secrets), owner, reseal);
        if (secrets === undefined) continue;
        await client.query("UPDATE deployments SET secrets = $1 WHERE id = $2", [secrets, d.id]);
        count += 1;
      }
      return count;
    });
  }

  async listOAuthProviders(organizationId: string): Promise<OAuthProviderRecord[]> {
    const rows = await this.query(
      "SELECT * FROM oauth_providers WHERE organization_id = $1 ORDER BY created_us ASC, id ASC",
      [organizationId],
    );
    return rows.map(toOAuthProviderRecord);
  }

  async createDeployment(d: NewDeployment, nowUs: number): Promise<CreatedDeployment> {
    const { deployment } = d;
    const stored = await this.transaction(async (client) => {
      // The counter row lock orders the creates of one tenant across every process: sequence
      // numbers stay dense and created_at strictly increasing; a rollback releases both.
      await client.query("INSERT INTO tenant_counters (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING", [
        deployment.tenant_id,
      ]);
      const counter = (
        await client.query(
          `UPDATE tenant_counters SET deployment_seq = deployment_seq + 1, last_created_us = GREATEST(last_created_us + 1, $1)
           WHERE tenant_id = $2 RETURNING deployment_seq, last_created_us`,
          [nowUs, deployment.tenant_id],
        )
      ).rows[0] as Row;
      const createdUs = Number(counter.last_created_us);
      const record = newDeploymentRecord(d, Number(counter.deployment_seq), createdUs);
      const text = this.renderer.text(record);
      const values = deploymentInsertValues(record, text);
      // Nothing is read back: the record is what was inserted (D-83, D-401).
      await client.query(
        `INSERT INTO deployments (${deploymentInsertColumns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(", ")})`,
        values,
      );
      await client.query(
        "INSERT INTO revisions (id, deployment_id, tenant_id, status, source_revision_config, created_us) VALUES ($1, $2, $3, 'QUEUED', $4, $5)",
        [
          deployment.latest_revision_id,
          deployment.id,
          deployment.tenant_id,
          JSON.stringify(deployment.source_revision_config),
          createdUs,
        ],
      );
      await client.query(
        "INSERT INTO tracing_projects (id, tenant_id, name, deployment_id, created_us) VALUES ($1, $2, $3, $4, $5)",
        [d.tracingProjectId, deployment.tenant_id, deployment.name, deployment.id, createdUs],
      );
      return { record, text };
    });
    return createdDeployment(stored.record, stored.text, this.renderer, nowUs);
  }

  async listDeploymentTexts(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<PageTexts> {
    const page = this.page(`${inlineTextColumns}, seq`, tenantId, query, nowUs);
    // The page's texts joined by PostgreSQL (one value instead of a row per deployment to parse, D-83), with how
    // many finished provisioning since their text was stored and how many texts were left out as heavy (D-350).
    const [summary] = await this.query(
      `SELECT string_agg(rendered, ',' ORDER BY seq DESC) AS joined, count(*) AS count,
              count(*) FILTER (WHERE ${provisionedSql(`$${page.params.length + 1}`)}) AS provisioned,
              count(rendered) AS inlined
       FROM (${page.sql}) AS page`,
      [...page.params, nowUs],
    );
    if (Number(summary?.inlined) < Number(summary?.count))
      return this.slicedPage(tenantId, this.page(weighedColumns, tenantId, query, nowUs), nowUs);
    if (Number(summary?.provisioned) === 0)
      return { joined: (summary?.joined as string | null) ?? "", count: Number(summary?.count) };
    // Some deployment of the page finished provisioning after its text was stored: row by row.
    const rows = this.page(deploymentTextColumns, tenantId, query, nowUs);
    return this.renderer.joinedAsOf(storedTexts(await this.query(rows.sql, rows.params)), nowUs);
  }

  /** A heavy page (D-350): its deployments weighed by one statement that reads no text, then read a slice at a time as iterated. */
  private async slicedPage(
    tenantId: string,
    weighed: { sql: string; params: unknown[] },
    nowUs: number,
  ): Promise<SlicedDeploymentTexts> {
    const rows = (await this.query(weighed.sql, weighed.params)).map(
      (row) => [Number(row.seq), Number(row.bytes)] as const,
    );
    return {
      count: rows.length,
      slices: readSlices(sliceSeqs(rows), async (seqs) => {
        const texts = await this.query(
          `SELECT ${deploymentTextColumns} FROM deployments WHERE tenant_id = $1 AND seq = ANY($2::bigint[]) ORDER BY seq DESC`,
          [tenantId, seqs],
        );
        return this.renderer.joinedAsOf(storedTexts(texts), nowUs).joined;
      }),
    };
  }

  /** A page's SQL in one statement (one round trip): unfiltered as an index seek on seq, filtered with LIMIT and OFFSET. */
  page(columns: string, tenantId: string, query: DeploymentQuery, nowUs: number): { sql: string; params: unknown[] } {
    if (isUnfiltered(query)) {
      // Dense per-tenant sequence numbers: offset k is an index seek, not a scan of k rows.
      return {
        sql: `SELECT ${columns} FROM deployments WHERE tenant_id = $1
           AND seq <= (SELECT deployment_seq FROM tenant_counters WHERE tenant_id = $1) - $2
         ORDER BY seq DESC LIMIT $3`,
        params: [tenantId, query.offset, query.limit],
      };
    }
    const filters = filterConditions("postgres", query, nowUs, 2);
    const n = filters.params.length;
    return {
      sql: `SELECT ${columns} FROM deployments WHERE tenant_id = $1${filters.sql} ORDER BY seq DESC LIMIT $${n + 2} OFFSET $${n + 3}`,
      params: [tenantId, ...filters.params, query.limit, query.offset],
    };
  }

  async promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number> {
    return this.transaction(async (client) => {
      // SKIP LOCKED: several processes sweep at once without waiting on each other.
      await client.query(readyBatchPlan);
      const rows = (await client.query(readyBatchSql, [nowUs, batchSize])).rows as Row[];
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => String(r.id));
      // The stored text is rewritten with the state: the READY head of D-83.
      const texts = rows.map((r) =>
        this.renderer.readyText(String(r.rendered), r.latest_revision_id as string | null, Number(r.ready_us)),
      );
      await client.query(
        `UPDATE deployments d SET status = 'READY', active_revision_id = d.latest_revision_id, updated_us = d.ready_us, rendered = v.rendered
         FROM unnest($1::text[], $2::text[]) AS v(id, rendered) WHERE d.id = v.id`,
        [ids, texts],
      );
      await client.query(
        "UPDATE revisions SET status = 'DEPLOYED' WHERE status = 'QUEUED' AND deployment_id = ANY($1::text[])",
        [ids],
      );
      return ids.length;
    });
  }
}

/** A unique violation (SQLSTATE 23505) becomes UniqueViolation naming its constraint. */
function translate(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string };
  if (e.code === "23505") return new UniqueViolation(e.constraint ?? "unique");
  return error;
}
