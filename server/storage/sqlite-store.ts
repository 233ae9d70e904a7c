/** SQLite adapter of the Store (Storage): better-sqlite3, WAL, synchronous FULL (or NORMAL), migrations at start-up, creates group-committed with one savepoint each. */

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
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
import { filterConditions, ftsPhrase, usesNameIndex } from "./deployment-filters.js";
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
import { isSqliteBusy, isSqliteDiskFull, retryPauseMs, retryWhileBusy, writeLockWaitMs } from "./sqlite-busy.js";
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

/**
 * `LIMIT n` written into the SQL text. SQLite prepares a statement whose LIMIT is a bound parameter
 * again at every run (parsing and planning it: most of a 20-row page's database time); a page's
 * limit is a validated 1 to 100, so each kind of page has at most 100 statements (D-83).
 */
function limitClause(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a limit must be a whole number, got ${limit}`);
  return `LIMIT ${limit}`;
}

/**
 * One page of a tenant's deployments without filters (parameters: tenant, tenant, offset).
 * Sequence numbers are dense per tenant, so offset k is the deployment numbered total - k: an index
 * range seek whatever the offset, and a walk over all pages stays linear.
 */
export function unfilteredPage(columns: string, limit: number): string {
  return `SELECT ${columns} FROM deployments WHERE tenant_id = ?
     AND seq <= (SELECT deployment_seq FROM tenant_counters WHERE tenant_id = ?) - ?
   ORDER BY seq DESC ${limitClause(limit)}`;
}

/**
 * A page's texts joined by SQLite itself: one string instead of a row and a string per
 * deployment (D-83), how many there are, and how many have finished provisioning since their text
 * was stored (the first parameter is the time), and how many texts it holds: fewer than its rows when the
 * page's columns are `inlineTextColumns` and it is heavy (D-350). Parameters: now, then the page's own.
 * The aggregate takes the rows in the order the page's subquery yields them (newest first); an
 * `ORDER BY` inside group_concat would sort them again, which doubled the cost of a 100-row page.
 * The store contract tests compare this order with the test inspector's listDeployments for every kind of page.
 */
function joinedTextPage(pageSql: string): string {
  return `SELECT group_concat(rendered, ','), count(*),
            count(CASE WHEN ${provisionedSql("?")} THEN 1 END), count(rendered)
          FROM (${pageSql})`;
}

/** The deployments of a tenant given by sequence number, newest first (parameters: tenant, a JSON array of numbers). */
function seqListPage(columns: string): string {
  return `SELECT ${columns} FROM deployments WHERE tenant_id = ? AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq DESC`;
}

/** Raw rows of `deploymentTextColumns` as the renderer reads them. */
function storedTexts(rows: unknown[][]): StoredText[] {
  return rows.map(([text, status, readyUs, latestRevisionId]) => ({
    text: text as string,
    status,
    readyUs: readyUs as number,
    latestRevisionId: latestRevisionId as string | null,
  }));
}

/** The SQL and parameters of a filtered page: the filters, then `ORDER BY seq DESC` with LIMIT and OFFSET. */
export function filteredPage(
  tenantId: string,
  query: DeploymentQuery,
  nowUs: number,
  columns = deploymentColumns,
): { sql: string; params: unknown[] } {
  if (usesNameIndex(query) && query.deploymentIds === undefined) return namePage(tenantId, query, nowUs, columns);
  const filters = filterConditions("sqlite", query, nowUs, 2);
  // Without statistics SQLite drives every filtered query from the (tenant_id, seq) index and scans
  // the whole tenant; with `deployment_ids` (at most 100) the `+` keeps it off that index, so it looks
  // them up by primary key instead and sorts that handful.
  const tenantColumn = query.deploymentIds !== undefined ? "+tenant_id" : "tenant_id";
  return {
    sql: `SELECT ${columns} FROM deployments WHERE ${tenantColumn} = ?${filters.sql} ORDER BY seq DESC ${limitClause(query.limit)} OFFSET ?`,
    params: [tenantId, ...filters.params, query.offset],
  };
}

/**
 * A page filtered by name (D-84, D-93): the trigram index gives the tenant's matches newest first
 * (its rowid order), `instr` on its copy of the name keeps the exact substring semantics, any other
 * filter is checked on each match's row, and the walk stops once the page is full: no match is
 * sorted or held, and the page's rows are read by primary key.
 */
function namePage(
  tenantId: string,
  query: DeploymentQuery,
  nowUs: number,
  columns: string,
): { sql: string; params: unknown[] } {
  const needle = query.nameContains!.toLowerCase();
  const others = filterConditions("sqlite", { ...query, nameContains: undefined }, nowUs, 4);
  const matchesOthers =
    others.sql === ""
      ? ""
      : ` AND EXISTS (SELECT 1 FROM deployments WHERE id = deployments_name_index.deployment_id${others.sql})`;
  return {
    sql: `SELECT ${columns} FROM deployments WHERE id IN (
            SELECT deployment_id FROM deployments_name_index
            WHERE deployments_name_index MATCH ? AND tenant_id = ? AND instr(name_lower, ?) > 0${matchesOthers}
            ORDER BY rowid DESC ${limitClause(query.limit)} OFFSET ?)
          ORDER BY seq DESC`,
    params: [ftsPhrase(needle), tenantId, needle, ...others.params, query.offset],
  };
}

/** Sequence numbers of a tenant one statement of a windowed filtered page reads (D-283): a few milliseconds each. */
const scanWindowRows = 2000;

/**
 * Whether a filtered page is read in windows (D-283): every filter but `deployment_ids` (at most 100 lookups by
 * primary key) and a name filter alone served by the trigram index (which walks only the name's matches) for a
 * page within its first `scanWindowRows` matches. Deeper, the walk is as long as the offset in one statement
 * (`seed-` at offset 39,000 of 40,000: about 90 ms), and the trigram index cannot start it part-way (a bound on
 * its rowid is walked to from the newest), so such a page is read in windows too (D-411).
 */
function isScannedInWindows(query: DeploymentQuery): boolean {
  if (query.deploymentIds !== undefined || query.matchNothing) return false;
  const nameAlone =
    query.statuses === undefined && query.remoteReconciled === undefined && query.imageVersion === undefined;
  return !(usesNameIndex(query) && nameAlone && query.offset + query.limit <= scanWindowRows);
}

/**
 * How many prepared statements of each kind a store keeps: a client's pages use a few shapes and limits,
 * while a statement of a filtered page holds some 25 KB (400 of them grew the RSS by about 10 MiB).
 */
const maxCachedStatements = 64;

interface SqliteStoreOptions {
  /** Renders the deployment texts the store keeps (the presenters' deploymentRenderer). */
  renderer: DeploymentRenderer;
  /** File path, or ":memory:". */
  path: string;
  /** The clock of the times the store stamps itself (created_us of organizations, tenants, keys; applied_us), in µs. */
  clock?: Clock;
  /** FULL (default) syncs the WAL at every commit; NORMAL survives a process crash but not a power loss. */
  synchronous?: "FULL" | "NORMAL";
}

export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  /** The connection; besides the store's own methods, only the test inspector (server/testing/store-inspector.ts) reads it. */
  readonly db: Database.Database;
  private readonly clock: Clock;
  /** Prepared statements by SQL text, the least recently used dropped past a bound (filtered pages make many texts). */
  private readonly statements = new Map<string, Database.Statement>();
  private readonly rawStatements = new Map<string, Database.Statement>();
  private readonly renderer: DeploymentRenderer;

  constructor(options: SqliteStoreOptions) {
    this.renderer = options.renderer;
    this.clock = options.clock ?? nowMicros;
    if (options.path !== ":memory:") ownerOnlyFiles(options.path);
    this.db = new Database(options.path);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.synchronous ?? "FULL"}`);
    this.db.pragma("foreign_keys = ON");
    // A 4 MiB page cache (D-83): the hot pages of the first pages and the indexes; the rest comes
    // from the OS's file cache. A larger one counts in the RSS and made every commit slower (SQLite
    // walks the cache at each one): 16 MiB measured no faster for lists and slower for creates. No
    // memory map either: every page it touched counted in the RSS too, and it read no faster.
    this.db.pragma(`cache_size = -${4 * 1024}`);
    // A checkpoint every 4,000 WAL pages (16 MiB) instead of SQLite's 1,000 (D-91): a create writes about
    // seven pages, most of them the same hot index pages as the creates before it, which a checkpoint
    // copies into the database once however often they were written; it also syncs the database file.
    this.db.pragma("wal_autocheckpoint = 4000");
    // Temporary structures in memory (D-91): each create's savepoint keeps the pages it changes in a
    // sub-journal, which SQLite otherwise opens as a temporary file (creates 6,716 -> 7,813-8,130/s
    // in-process). Reads are unchanged: a page's ORDER BY ... LIMIT is a top-N sort of offset + limit rows,
    // which SQLite keeps in memory with either setting (measured alike).
    this.db.pragma("temp_store = MEMORY");
    // Another process (the admin command, a backup, a second server) may hold the write lock: SQLite's
    // busy handler would wait for it on the event loop, so a write tries once and is retried off the
    // loop (D-110, sqlite-busy.ts); only the migrations at start-up, before any request, wait here.
    this.db.pragma("busy_timeout = 0");
  }

  /** A prepared statement, prepared once per SQL text while it stays in use. */
  private statement(sql: string): Database.Statement {
    return this.cachedStatement(this.statements, sql, () => this.db.prepare(sql));
  }

  /** A prepared statement that returns each row as an array, prepared once per SQL text while it stays in use. */
  private rawStatement(sql: string): Database.Statement {
    return this.cachedStatement(this.rawStatements, sql, () => this.db.prepare(sql).raw(true));
  }

  private cachedStatement(
    cache: Map<string, Database.Statement>,
    sql: string,
    prepare: () => Database.Statement,
  ): Database.Statement {
    let prepared = cache.get(sql);
    if (prepared) {
      // Most recently used last: a Map keeps insertion order.
      cache.delete(sql);
    } else {
      prepared = prepare();
      if (cache.size >= maxCachedStatements) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, prepared);
    return prepared;
  }

  async migrate(): Promise<void> {
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us INTEGER NOT NULL)",
    );
    const appliedVersions = () =>
      new Set((this.db.prepare("SELECT version FROM schema_migrations").all() as Row[]).map((r) => Number(r.version)));
    // The SQL is prepared before the (synchronous) transaction; the transaction checks again what is applied.
    const pending = migrations.filter((migration) => !appliedVersions().has(migration.version));
    const statements = new Map(
      await Promise.all(pending.map(async (migration) => [migration.version, await migration.sql("sqlite")] as const)),
    );
    const apply = this.db.transaction(() => {
      const applied = appliedVersions();
      for (const migration of pending) {
        if (applied.has(migration.version)) continue;
        this.db.exec(statements.get(migration.version)!);
        this.db
          .prepare("INSERT INTO schema_migrations (version, name, applied_us) VALUES (?, ?, ?)")
          .run(migration.version, migration.name, this.clock());
      }
    });
    this.db.pragma("busy_timeout = 5000");
    try {
      apply.immediate();
      this.renderMissingTexts();
    } finally {
      this.db.pragma("busy_timeout = 0");
    }
  }

  /** Stores the response text of deployments written before texts were stored (migration 2), a batch per transaction. */
  private renderMissingTexts(): void {
    const batch = this.db.transaction((): number => {
      const rows = this.statement(
        `SELECT ${deploymentColumns} FROM deployments WHERE rendered IS NULL LIMIT 500`,
      ).all() as Row[];
      const update = this.statement("UPDATE deployments SET rendered = ? WHERE id = ?");
      // As stored, not as of now: reads derive READY from the time (deploymentAsOf with no time passed yet).
      for (const row of rows) update.run(this.renderer.text(toDeploymentRecord(row, Number.NEGATIVE_INFINITY)), row.id);
      return rows.length;
    });
    while (batch.immediate() === 500) {
      // A full batch: more may be waiting.
    }
  }

  /**
   * The bytes of the largest write that failed for want of disk space since a write at least as large last
   * committed (0: none failed): /healthz is "full" while it is set (D-280, D-413). A smaller write that commits
   * does not clear it, since creates of that size may still fail.
   */
  private failedWriteBytes = 0;

  /** Notes a failed write's error and about how many bytes it would have stored: a full disk latches "full" (D-413). */
  private writeFailed(error: unknown, bytes = diskProbeBytes): unknown {
    if (isSqliteDiskFull(error)) this.failedWriteBytes = Math.max(this.failedWriteBytes, bytes);
    return error;
  }

  /**
   * Reads, then asks for the write lock without waiting and gives it back at once: "locked" when another
   * connection holds it (D-110). After a write failed for want of disk space, a write as large as the largest
   * that failed (a meta row inserted and deleted in one transaction, at most `maxDiskProbeBytes`) tells whether
   * space has come back: "full" until it commits (D-280, D-413). Nothing is written while no write failed.
   */
  async ping(): Promise<DatabaseState> {
    this.statement("SELECT 1").get();
    if (this.failedWriteBytes > 0) {
      try {
        const probe = "x".repeat(Math.min(this.failedWriteBytes, maxDiskProbeBytes));
        this.db
          .transaction(() => {
            this.statement("INSERT INTO meta (key, value) VALUES ('disk_probe', ?)").run(probe);
            this.statement("DELETE FROM meta WHERE key = 'disk_probe'").run();
          })
          .immediate();
        this.failedWriteBytes = 0;
      } catch (error) {
        if (isSqliteBusy(error)) return "locked";
        if (isSqliteDiskFull(error)) return "full";
        throw error;
      }
    }
    try {
      this.db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if (isSqliteBusy(error)) return "locked";
      throw error;
    }
    this.db.exec("ROLLBACK");
    return "ok";
  }

  async close(): Promise<void> {
    // Creates still queued for the next group commit are written before the database closes.
    while (this.pendingCreates.length > 0) this.flushCreates();
    this.db.close();
  }

  async isEmpty(): Promise<boolean> {
    return this.statement("SELECT 1 FROM organizations LIMIT 1").get() === undefined;
  }

  async metaGetOrSet(key: string, value: string): Promise<string> {
    await retryWhileBusy(() =>
      this.statement("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(key, value),
    );
    return String((this.statement("SELECT value FROM meta WHERE key = ?").get(key) as Row).value);
  }

  async createOrganization(o: OrganizationRecord): Promise<void> {
    await this.guard(() =>
      this.statement("INSERT INTO organizations (id, name, created_us) VALUES (?, ?, ?)").run(
        o.id,
        o.name,
        this.clock(),
      ),
    );
  }

  async createTenant(t: TenantRecord): Promise<void> {
    await this.guard(() =>
      this.db
        .transaction(() => {
          this.statement("INSERT INTO tenants (id, organization_id, name, created_us) VALUES (?, ?, ?, ?)").run(
            t.id,
            t.organizationId,
            t.name,
            this.clock(),
          );
          this.statement("INSERT INTO tenant_counters (tenant_id) VALUES (?)").run(t.id);
        })
        .immediate(),
    );
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    const row = this.statement("SELECT id, organization_id, name FROM tenants WHERE id = ?").get(id) as Row | undefined;
    return row && { id: String(row.id), organizationId: String(row.organization_id), name: String(row.name) };
  }

  async createApiKey(k: ApiKeyRecord): Promise<void> {
    await this.guard(() =>
      this.db
        .transaction(() => {
          this.statement(
            "INSERT INTO api_keys (id, organization_id, key_hash, label, default_tenant_id, created_us) VALUES (?, ?, ?, ?, ?, ?)",
          ).run(k.id, k.organizationId, k.keyHash, k.label, k.defaultTenantId, this.clock());
          for (const tenantId of new Set([k.defaultTenantId, ...k.tenantIds])) {
            this.statement("INSERT INTO api_key_tenants (api_key_id, tenant_id) VALUES (?, ?)").run(k.id, tenantId);
          }
        })
        .immediate(),
    );
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // One statement per request: the key and the tenants it reaches.
    const row = this.statement(
      `SELECT k.id, k.organization_id, k.key_hash, k.label, k.default_tenant_id,
              (SELECT json_group_array(t.tenant_id) FROM api_key_tenants t WHERE t.api_key_id = k.id) AS tenant_ids
       FROM api_keys k WHERE k.key_hash = ?`,
    ).get(keyHash) as Row | undefined;
    if (!row) return undefined;
    return {
      id: String(row.id),
      organizationId: String(row.organization_id),
      keyHash: String(row.key_hash),
      label: String(row.label),
      defaultTenantId: String(row.default_tenant_id),
      tenantIds: (JSON.parse(String(row.tenant_ids)) as unknown[]).map(String),
    };
  }

  async insertOAuthProvider(p: OAuthProviderRecord, maxPerOrganization: number): Promise<void> {
    await this.guard(() => this.db.transaction(() => this.insertOAuthProviderBelow(p, maxPerOrganization)).immediate());
  }

  /** The count and the insert in one write transaction: no other writer can come between them (D-112). */
  private insertOAuthProviderBelow(p: OAuthProviderRecord, maxPerOrganization: number): void {
    const { count } = this.statement("SELECT count(*) AS count FROM oauth_providers WHERE organization_id = ?").get(
      p.provider.organization_id,
    ) as { count: number };
    if (count >= maxPerOrganization) throw new LimitReached(maxPerOrganization);
    const values = oauthProviderInsertValues(p, "integer");
    this.statement(
      `INSERT INTO oauth_providers (${oauthProviderInsertColumns}) VALUES (${values.map(() => "?").join(", ")})`,
    ).run(...values);
  }

  async listOAuthProviders(organizationId: string): Promise<OAuthProviderRecord[]> {
    const rows = this.statement(
      "SELECT * FROM oauth_providers WHERE organization_id = ? ORDER BY created_us ASC, id ASC",
    ).all(organizationId) as Row[];
    return rows.map(toOAuthProviderRecord);
  }

  /**
   * Group commit: the creates that arrive in one turn of the event loop share one transaction
   * (one fsync under synchronous=FULL), each in its own savepoint, so a taken name fails only its
   * own create. Every caller is answered after the commit that holds its create.
   */
  createDeployment(d: NewDeployment, nowUs: number): Promise<CreatedDeployment> {
    return new Promise((resolve, reject) => {
      this.pendingCreates.push({ deployment: d, nowUs, queuedMs: performance.now(), resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flushCreates());
      }
    });
  }

  private readonly pendingCreates: Array<{
    deployment: NewDeployment;
    nowUs: number;
    /** performance.now() when the create was queued: it waits for a lock held elsewhere up to writeLockWaitMs (D-110). */
    queuedMs: number;
    resolve: (created: CreatedDeployment) => void;
    reject: (error: unknown) => void;
  }> = [];
  private flushScheduled = false;
  /** Group commits in a row that found the write lock held elsewhere (D-110): the pause before the next grows with it. */
  private busyCommits = 0;

  private flushCreates(): void {
    this.flushScheduled = false;
    const batch = this.pendingCreates.splice(0, 500);
    if (this.pendingCreates.length > 0) {
      this.flushScheduled = true;
      setImmediate(() => this.flushCreates());
    }
    const insertOne = this.db.transaction((d: NewDeployment, nowUs: number) => this.insertDeployment(d, nowUs));
    const outcomes: Array<{ record?: CreatedDeployment; error?: unknown }> = [];
    try {
      this.db
        .transaction(() => {
          for (const item of batch) {
            try {
              // A nested transaction is a savepoint: a failure undoes this create only.
              outcomes.push({ record: insertOne(item.deployment, item.nowUs) });
            } catch (error) {
              // A full disk (or any failure SQLite answers by rolling back the whole transaction) fails the
              // whole batch: none of it is stored (D-280).
              if (isSqliteDiskFull(error) || !this.db.inTransaction) throw error;
              outcomes.push({ error: asUniqueViolation(error) });
            }
          }
          // The names of the batch's deployments for name_contains, in the same commit (D-84).
          // In batch order, which is each tenant's sequence order: the index's rowids keep it.
          const created = batch
            .filter((_, i) => outcomes[i]!.record !== undefined)
            .map(({ deployment: { deployment: d } }) => ({
              name: d.name.toLowerCase(),
              id: d.id,
              tenant: d.tenant_id,
            }));
          if (created.length > 0) {
            this.statement(
              "INSERT INTO deployments_name_index (name_lower, deployment_id, tenant_id) SELECT value ->> 'name', value ->> 'id', value ->> 'tenant' FROM json_each(?) ORDER BY key",
            ).run(JSON.stringify(created));
          }
        })
        .immediate();
    } catch (error) {
      // The commit failed: none of the batch is stored.
      if (isSqliteBusy(error)) {
        this.retryCreatesLater(batch, error);
        return;
      }
      const bytes = batchBytes(batch.map((item) => item.deployment));
      for (const item of batch) item.reject(this.writeFailed(error, bytes));
      return;
    }
    this.busyCommits = 0;
    if (this.failedWriteBytes > 0 && batchBytes(batch.map((item) => item.deployment)) >= this.failedWriteBytes)
      this.failedWriteBytes = 0;
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as { record?: CreatedDeployment; error?: unknown };
      if (outcome.record) item.resolve(outcome.record);
      else item.reject(outcome.error);
    });
  }

  /**
   * Another connection holds the write lock (BEGIN IMMEDIATE failed, nothing of the batch ran): the creates
   * queued for longer than writeLockWaitMs are answered with the busy error (503, D-81), the others go back
   * to the front of the queue, and the next commit is tried after a timer, not on this turn (D-110).
   */
  private retryCreatesLater(batch: typeof this.pendingCreates, error: unknown): void {
    const now = performance.now();
    const waiting = batch.filter((item) => {
      if (now - item.queuedMs < writeLockWaitMs) return true;
      item.reject(error);
      return false;
    });
    this.pendingCreates.unshift(...waiting);
    if (this.pendingCreates.length > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      this.busyCommits += 1;
      setTimeout(() => this.flushCreates(), retryPauseMs(this.busyCommits));
    }
  }

  /** The deployment, its first revision and its tracing project, numbered from the tenant's counter. */
  private insertDeployment(d: NewDeployment, nowUs: number): CreatedDeployment {
    const { deployment } = d;
    let counter = this.statement(
      `UPDATE tenant_counters SET deployment_seq = deployment_seq + 1, last_created_us = MAX(last_created_us + 1, ?)
       WHERE tenant_id = ? RETURNING deployment_seq, last_created_us`,
    ).get(nowUs, deployment.tenant_id) as Row | undefined;
    if (!counter) {
      this.statement("INSERT INTO tenant_counters (tenant_id, deployment_seq, last_created_us) VALUES (?, 1, ?)").run(
        deployment.tenant_id,
        nowUs,
      );
      counter = { deployment_seq: 1, last_created_us: nowUs };
    }
    const createdUs = Number(counter.last_created_us);
    const record = newDeploymentRecord(d, Number(counter.deployment_seq), createdUs);
    const text = this.renderer.text(record);
    const values = deploymentInsertValues(record, text);
    // Nothing is read back: the record is what was inserted (no row to parse, D-83).
    this.statement(
      `INSERT INTO deployments (${deploymentInsertColumns}) VALUES (${values.map(() => "?").join(", ")})`,
    ).run(...values);
    this.statement(
      "INSERT INTO revisions (id, deployment_id, tenant_id, status, source_revision_config, created_us) VALUES (?, ?, ?, 'QUEUED', ?, ?)",
    ).run(
      deployment.latest_revision_id,
      deployment.id,
      deployment.tenant_id,
      JSON.stringify(deployment.source_revision_config),
      createdUs,
    );
    this.statement(
      "INSERT INTO tracing_projects (id, tenant_id, name, deployment_id, created_us) VALUES (?, ?, ?, ?, ?)",
    ).run(d.tracingProjectId, deployment.tenant_id, deployment.name, deployment.id, createdUs);
    return createdDeployment(record, text, this.renderer, nowUs);
  }

  async listDeploymentTexts(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<PageTexts> {
    const page = await this.pageOf(tenantId, query, nowUs);
    const inline = page(inlineTextColumns);
    const [joined, count, provisioned, inlined] = this.rawStatement(joinedTextPage(inline.sql)).get(
      nowUs,
      ...inline.params,
    ) as [string | null, number, number, number];
    if (inlined < count) return this.slicedPage(tenantId, page(weighedColumns), nowUs);
    if (provisioned === 0) return { joined: joined ?? "", count };
    // Some deployment of the page finished provisioning after its text was stored: row by row.
    const rows = page(deploymentTextColumns);
    return this.renderer.joinedAsOf(storedTexts(this.rawStatement(rows.sql).all(...rows.params) as unknown[][]), nowUs);
  }

  /** The SQL of a page for the given columns, each kind of page built as D-84, D-93 and D-283 decide. */
  private async pageOf(
    tenantId: string,
    query: DeploymentQuery,
    nowUs: number,
  ): Promise<(columns: string) => { sql: string; params: unknown[] }> {
    if (isUnfiltered(query))
      return (columns) => ({
        sql: unfilteredPage(columns, query.limit),
        params: [tenantId, tenantId, query.offset],
      });
    if (isScannedInWindows(query)) {
      const seqs = await this.windowedPageSeqs(tenantId, query, nowUs);
      return (columns) => ({
        sql: seqListPage(columns),
        params: [tenantId, seqs],
      });
    }
    return (columns) => filteredPage(tenantId, query, nowUs, columns);
  }

  /** A heavy page (D-350): its deployments weighed by one statement that reads no text, then read a slice at a time as iterated. */
  private slicedPage(
    tenantId: string,
    weighed: { sql: string; params: unknown[] },
    nowUs: number,
  ): SlicedDeploymentTexts {
    const rows = this.rawStatement(weighed.sql).all(...weighed.params) as Array<[number, number]>;
    const read = this.rawStatement(seqListPage(deploymentTextColumns));
    return {
      count: rows.length,
      slices: readSlices(
        sliceSeqs(rows),
        (seqs) =>
          this.renderer.joinedAsOf(storedTexts(read.all(tenantId, JSON.stringify(seqs)) as unknown[][]), nowUs).joined,
      ),
    };
  }

  /**
   * A filtered page whose matches may be few among the tenant's rows (D-283): the tenant is read newest first
   * in windows of `scanWindowRows` sequence numbers, one statement each, with a turn of the event loop between
   * them, until the page's matches are found or the tenant ends. A statement costs a few milliseconds whatever
   * the tenant's size, so another organization's request waits at most one window, not the whole scan. While
   * the offset is still ahead, a window's matches are only counted (D-411): a dense filter deep in returns no row
   * of the windows before its page, and holds only the page's sequence numbers.
   * Returns the page's sequence numbers as a JSON array.
   */
  private async windowedPageSeqs(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<string> {
    const needle = query.nameContains?.toLowerCase();
    const filters = filterConditions("sqlite", { ...query, nameContains: undefined }, nowUs, 4);
    const conditions = `tenant_id = ? AND seq <= ? AND seq > ?${needle === undefined ? "" : " AND instr(name_lower, ?) > 0"}${filters.sql}`;
    const window = this.rawStatement(`SELECT seq FROM deployments WHERE ${conditions} ORDER BY seq DESC`);
    const counted = this.rawStatement(`SELECT count(*) FROM deployments WHERE ${conditions}`);
    const top = this.statement("SELECT deployment_seq FROM tenant_counters WHERE tenant_id = ?").get(tenantId) as
      | Row
      | undefined;
    const seqs: number[] = [];
    // Matches newer than the page not yet passed over.
    let ahead = query.offset;
    const newest = Number(top?.deployment_seq ?? 0);
    for (let high = newest; high > 0 && seqs.length < query.limit; high -= scanWindowRows) {
      // Requests that arrived meanwhile are served before the next window.
      if (high !== newest) await new Promise((resolve) => setImmediate(resolve));
      const params = [
        tenantId,
        high,
        high - scanWindowRows,
        ...(needle === undefined ? [] : [needle]),
        ...filters.params,
      ];
      if (ahead > 0) {
        const [matches] = counted.get(...params) as [number];
        if (matches <= ahead) {
          ahead -= matches;
          continue;
        }
      }
      for (const [seq] of window.all(...params) as [number][]) {
        if (ahead > 0) ahead -= 1;
        else if (seqs.length < query.limit) seqs.push(seq);
      }
    }
    return JSON.stringify(seqs);
  }

  async resealUnbound(reseal: (sealed: string, owner: SealOwner) => string): Promise<number> {
    const resealAll = this.db.transaction((): number => {
      let count = 0;
      const providers = this.db
        .prepare(
          "SELECT id, organization_id, sealed_client_secret FROM oauth_providers WHERE sealed_client_secret LIKE 'v1.%'",
        )
        .all() as Row[];
      const updateProvider = this.db.prepare("UPDATE oauth_providers SET sealed_client_secret = ? WHERE id = ?");
      for (const p of providers) {
        const owner = {
          kind: "provider",
          organizationId: String(p.organization_id),
          providerId: String(p.id),
        } as const;
        updateProvider.run(reseal(String(p.sealed_client_secret), owner), p.id);
        count += 1;
      }
      const deployments = this.db
        .prepare(
          `SELECT d.id, d.tenant_id, t.organization_id, d.secrets FROM deployments d JOIN tenants t ON t.id = d.tenant_id
           WHERE d.secrets LIKE '%"v1.%'`,
        )
        .all() as Row[];
      const updateSecrets = this.db.prepare("UPDATE deployments SET secrets = ? WHERE id = ?");
      for (const d of deployments) {
        const owner = {
          organizationId: String(d.organization_id),
          tenantId: String(d.tenant_id),
          deploymentId: String(d.id),
        };
        const secrets = resealedSecrets(String(d.secrets), owner, reseal);
        if (secrets === undefined) continue;
        updateSecrets.run(secrets, d.id);
        count += 1;
      }
      return count;
    });
    return retryWhileBusy(() => resealAll.immediate());
  }

  async promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number> {
    // Nothing due, nothing written: no write lock is asked for (D-110); a read of the partial index.
    if (this.statement(dueDeployment).get(nowUs) === undefined) return 0;
    const promote = this.db.transaction((): number => {
      const rows = this.rawStatement(
        `SELECT id, rendered, latest_revision_id, ready_us FROM deployments WHERE ${provisionedSql("?")} ${limitClause(batchSize)}`,
      ).all(nowUs) as unknown[][];
      if (rows.length === 0) return 0;
      // The stored text is rewritten with the state: the READY head of D-83.
      const update = this.statement(
        `UPDATE deployments SET status = 'READY', active_revision_id = latest_revision_id, updated_us = ready_us, rendered = ?
         WHERE id = ? AND status = 'AWAITING_DATABASE'`,
      );
      for (const [id, text, latestRevisionId, readyUs] of rows)
        update.run(this.renderer.readyText(text as string, latestRevisionId as string | null, readyUs as number), id);
      this.statement(
        `UPDATE revisions SET status = 'DEPLOYED' WHERE status = 'QUEUED' AND deployment_id IN (SELECT value FROM json_each(?))`,
      ).run(JSON.stringify(rows.map(([id]) => id)));
      return rows.length;
    });
    try {
      return promote.immediate();
    } catch (error) {
      throw this.writeFailed(error);
    }
  }

  /** Runs a write, retried off the loop while another connection holds the lock (D-110), turning a unique-constraint failure into UniqueViolation. */
  private guard<T>(write: () => T): Promise<T> {
    return retryWhileBusy(() => {
      try {
        return write();
      } catch (error) {
        throw asUniqueViolation(this.writeFailed(error));
      }
    });
  }
}

/**
 * The database file created, or kept, readable by its owner only (D-117); SQLite gives its `-wal` and `-shm`
 * the mode of the database file, and ones left 0644 by an older version are narrowed too.
 */
function ownerOnlyFiles(databasePath: string): void {
  fs.mkdirSync(path.dirname(databasePath), { recursive: true });
  fs.closeSync(fs.openSync(databasePath, "a", 0o600));
  for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) {
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }
}

/** What a write other than a create is taken to need when it fails for want of space: about what one create writes. */
const diskProbeBytes = 8192;

/** The largest probe row of ping while the disk is full: above the largest create D-282 allows. */
const maxDiskProbeBytes = 512 * 1024;

/**
 * About the bytes a group commit of these creates stores: each deployment's values twice (its columns and its
 * rendered text, D-83), at least `diskProbeBytes`. Reckoned only while a full disk is latched or a commit failed.
 */
function batchBytes(deployments: readonly NewDeployment[]): number {
  let bytes = 0;
  for (const deployment of deployments) bytes += 2 * Buffer.byteLength(JSON.stringify(deployment));
  return Math.max(bytes, diskProbeBytes);
}

/** One deployment whose provisioning has ended but whose READY is not yet stored (the `deployments_awaiting` index). */
const dueDeployment = `SELECT 1 FROM deployments WHERE ${provisionedSql("?")} LIMIT 1`;

/** A unique-constraint failure as UniqueViolation; any other error unchanged. */
function asUniqueViolation(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return new UniqueViolation(uniqueConstraintName((error as Error).message));
  }
  return error;
}

/** SQLite names the columns ("UNIQUE constraint failed: deployments.tenant_id, deployments.name"). */
function uniqueConstraintName(message: string): string {
  return message.replace(/^UNIQUE constraint failed: /, "").trim();
}
