/**
 * The SQLite adapter's deployment writes (Storage, D-91): creates group-committed with one savepoint each,
 * and the provisioning sweep. They run on one connection: the writer thread's for a database file, the
 * store's own for ":memory:".
 */
import type Database from "better-sqlite3";
import { readyDeploymentText } from "../presenters/deployment-text.js";
import type { DeploymentRecord, NewDeployment } from "./records.js";
import { deploymentInsertColumns, deploymentInsertValues, insertedDeploymentRecord } from "./row-mapping.js";
import { StatementCache } from "./sqlite-connection.js";
import { UniqueViolation } from "./store.js";

type Row = Record<string, unknown>;

/** What one create of a group commit came to: the stored record, or why it was not stored. */
export type CreateOutcome = { record: DeploymentRecord } | { error: unknown };

/** At most this many creates share one commit; the rest wait for the next one. */
const maxBatch = 500;

export class DeploymentWrites {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.statements = new StatementCache(db);
  }

  /**
   * One transaction (one fsync under synchronous=FULL) for a batch of creates, each in its own savepoint,
   * so a taken name fails only its own create. Throws when the commit itself fails: then none is stored.
   */
  createBatch(batch: Array<{ deployment: NewDeployment; nowUs: number }>): CreateOutcome[] {
    const insertOne = this.db.transaction((d: NewDeployment, nowUs: number) => this.insertDeployment(d, nowUs));
    const outcomes: CreateOutcome[] = [];
    this.db
      .transaction(() => {
        for (const { deployment, nowUs } of batch) {
          try {
            // A nested transaction is a savepoint: a failure undoes this create only.
            outcomes.push({ record: insertOne(deployment, nowUs) });
          } catch (error) {
            outcomes.push({ error: asUniqueViolation(error) });
          }
        }
        // The names of the batch's deployments for name_contains, in the same commit (D-84).
        // In batch order, which is each tenant's sequence order: the index's rowids keep it.
        const created = batch
          .filter((_, i) => "record" in outcomes[i]!)
          .map(({ deployment }) => ({
            name: deployment.name.toLowerCase(),
            id: deployment.id,
            tenant: deployment.tenantId,
          }));
        if (created.length > 0) {
          this.statements
            .statement(
              "INSERT INTO deployments_name_index (name_lower, deployment_id, tenant_id) SELECT value ->> 'name', value ->> 'id', value ->> 'tenant' FROM json_each(?) ORDER BY key",
            )
            .run(JSON.stringify(created));
        }
      })
      .immediate();
    return outcomes;
  }

  /** The deployment, its first revision and its tracing project, numbered from the tenant's counter. */
  private insertDeployment(d: NewDeployment, nowUs: number): DeploymentRecord {
    let counter = this.statements
      .statement(
        `UPDATE tenant_counters SET deployment_seq = deployment_seq + 1, last_created_us = MAX(last_created_us + 1, ?)
       WHERE tenant_id = ? RETURNING deployment_seq, last_created_us`,
      )
      .get(nowUs, d.tenantId) as Row | undefined;
    if (!counter) {
      this.statements
        .statement("INSERT INTO tenant_counters (tenant_id, deployment_seq, last_created_us) VALUES (?, 1, ?)")
        .run(d.tenantId, nowUs);
      counter = { deployment_seq: 1, last_created_us: nowUs };
    }
    const seq = Number(counter.deployment_seq);
    const createdUs = Number(counter.last_created_us);
    const values = deploymentInsertValues(d, seq, createdUs, createdUs + d.readyAfterUs);
    // Nothing is read back: the record is what was inserted (no row to parse, D-83).
    this.statements
      .statement(`INSERT INTO deployments (${deploymentInsertColumns}) VALUES (${values.map(() => "?").join(", ")})`)
      .run(...values);
    this.statements
      .statement(
        "INSERT INTO revisions (id, deployment_id, tenant_id, status, source_revision_config, created_us) VALUES (?, ?, ?, 'QUEUED', ?, ?)",
      )
      .run(d.revisionId, d.id, d.tenantId, JSON.stringify(d.sourceRevisionConfig), createdUs);
    this.statements
      .statement("INSERT INTO tracing_projects (id, tenant_id, name, deployment_id, created_us) VALUES (?, ?, ?, ?, ?)")
      .run(d.tracingProjectId, d.tenantId, d.name, d.id, createdUs);
    return insertedDeploymentRecord(d, seq, createdUs, createdUs + d.readyAfterUs, nowUs);
  }

  /** Stores READY for up to batchSize deployments whose provisioning ended by nowUs (D-53); returns how many. */
  promoteReadyDeployments(nowUs: number, batchSize: number): number {
    const promote = this.db.transaction((): number => {
      const rows = this.statements
        .rawStatement(
          `SELECT id, rendered, latest_revision_id, ready_us FROM deployments WHERE status = 'AWAITING_DATABASE' AND ready_us <= ? LIMIT ${wholeNumber(batchSize)}`,
        )
        .all(nowUs) as unknown[][];
      if (rows.length === 0) return 0;
      // The stored text is rewritten with the state: the READY head of D-83.
      const update = this.statements.statement(
        `UPDATE deployments SET status = 'READY', active_revision_id = latest_revision_id, updated_us = ready_us, rendered = ?
         WHERE id = ? AND status = 'AWAITING_DATABASE'`,
      );
      for (const [id, text, latestRevisionId, readyUs] of rows)
        update.run(readyDeploymentText(text as string, latestRevisionId as string | null, readyUs as number), id);
      this.statements
        .statement(
          `UPDATE revisions SET status = 'DEPLOYED' WHERE status = 'QUEUED' AND deployment_id IN (SELECT value FROM json_each(?))`,
        )
        .run(JSON.stringify(rows.map(([id]) => id)));
      return rows.length;
    });
    return promote.immediate();
  }
}

/**
 * Group commit: the creates that arrive in one turn of the event loop share one transaction, and
 * every caller is answered after the commit that holds its create.
 */
export class GroupCommit {
  private readonly pending: Array<{
    deployment: NewDeployment;
    nowUs: number;
    settle: (outcome: CreateOutcome) => void;
  }> = [];
  private flushScheduled = false;

  constructor(private readonly writes: DeploymentWrites) {}

  /** Queues a create for the next commit; `settle` hears its outcome (a failed commit fails each create of it). */
  add(deployment: NewDeployment, nowUs: number, settle: (outcome: CreateOutcome) => void): void {
    this.pending.push({ deployment, nowUs, settle });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Commits every queued create now (before the connection closes). */
  flushAll(): void {
    while (this.pending.length > 0) this.flush();
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending.splice(0, maxBatch);
    if (this.pending.length > 0) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    if (batch.length === 0) return;
    let outcomes: CreateOutcome[];
    try {
      outcomes = this.writes.createBatch(batch);
    } catch (error) {
      // The commit failed: none of the batch is stored.
      for (const item of batch) item.settle({ error });
      return;
    }
    for (const [i, item] of batch.entries()) item.settle(outcomes[i]!);
  }
}

/** `LIMIT n` must be written into the SQL (a bound LIMIT re-prepares the statement at every run, D-83). */
export function wholeNumber(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a limit must be a whole number, got ${limit}`);
  return limit;
}

/** A unique-constraint failure as UniqueViolation; any other error unchanged. */
export function asUniqueViolation(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    // SQLite names the columns ("UNIQUE constraint failed: deployments.tenant_id, deployments.name").
    return new UniqueViolation((error as Error).message.replace(/^UNIQUE constraint failed: /, "").trim());
  }
  return error;
}
