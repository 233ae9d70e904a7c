/**
 * What the tests read of a store beyond the Store interface: a page of deployment records, a deployment's
 * revisions, a tracing project. No service needs them, so they are not part of Store; each adapter's
 * inspector reads the adapter's own storage (D-211).
 */
import type { DeploymentQuery, DeploymentRecord, RevisionRecord, TracingProjectRecord } from "../domain/records.js";
import { deploymentAsOf, isUnfiltered, provisionedBy } from "../domain/records.js";
import { MemoryStore } from "../storage/memory-store.js";
import { PostgresStore } from "../storage/postgres-store.js";
import {
  deploymentInsertColumns,
  toDeploymentRecord,
  toRevisionRecord,
  toTracingProjectRecord,
} from "../storage/row-mapping.js";
import { filteredPage, SqliteStore, unfilteredPage } from "../storage/sqlite-store.js";
import type { Store } from "../storage/store.js";

/** The test-only reads of a store. */
export interface StoreInspector {
  /** The same page as Store.listDeploymentTexts, as records as of nowUs. */
  listDeployments(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<DeploymentRecord[]>;
  /** A deployment's revisions, newest first, as of nowUs (QUEUED becomes DEPLOYED once provisioning has ended). */
  listRevisions(tenantId: string, deploymentId: string, nowUs: number): Promise<RevisionRecord[]>;
  getTracingProject(tenantId: string, name: string): Promise<TracingProjectRecord | undefined>;
}

type Row = Record<string, unknown>;

/** The revisions of a deployment, newest first, with the deployment's ready time (both SQL dialects). */
const revisionsSql = (tenant: string, deployment: string) =>
  `SELECT r.*, d.ready_us AS deployment_ready_us FROM revisions r JOIN deployments d ON d.id = r.deployment_id
   WHERE r.tenant_id = ${tenant} AND r.deployment_id = ${deployment} ORDER BY r.created_us DESC, r.id DESC`;

/** The inspector of a store, by its adapter. */
export function inspectStore(store: Store): StoreInspector {
  if (store instanceof SqliteStore) return sqliteInspector(store);
  if (store instanceof PostgresStore) return postgresInspector(store);
  if (store instanceof MemoryStore) return memoryInspector(store);
  throw new Error(`no inspector for a ${store.kind} store`);
}

function sqliteInspector(store: SqliteStore): StoreInspector {
  return {
    async listDeployments(tenantId, query, nowUs) {
      const page = isUnfiltered(query)
        ? { sql: unfilteredPage(deploymentInsertColumns, query.limit), params: [tenantId, tenantId, query.offset] }
        : filteredPage(tenantId, query, nowUs, deploymentInsertColumns);
      return (store.db.prepare(page.sql).all(...page.params) as Row[]).map((row) => toDeploymentRecord(row, nowUs));
    },
    async listRevisions(tenantId, deploymentId, nowUs) {
      const rows = store.db.prepare(revisionsSql("?", "?")).all(tenantId, deploymentId) as Row[];
      return rows.map((row) => toRevisionRecord(row, nowUs, Number(row.deployment_ready_us)));
    },
    async getTracingProject(tenantId, name) {
      const row = store.db
        .prepare("SELECT * FROM tracing_projects WHERE tenant_id = ? AND name = ?")
        .get(tenantId, name);
      return row === undefined ? undefined : toTracingProjectRecord(row as Row);
    },
  };
}

function postgresInspector(store: PostgresStore): StoreInspector {
  return {
    async listDeployments(tenantId, query, nowUs) {
      const page = store.page(deploymentInsertColumns, tenantId, query, nowUs);
      return (await store.query(page.sql, page.params)).map((row) => toDeploymentRecord(row, nowUs));
    },
    async listRevisions(tenantId, deploymentId, nowUs) {
      const rows = await store.query(revisionsSql("$1", "$2"), [tenantId, deploymentId]);
      return rows.map((row) => toRevisionRecord(row, nowUs, Number(row.deployment_ready_us)));
    },
    async getTracingProject(tenantId, name) {
      const [row] = await store.query("SELECT * FROM tracing_projects WHERE tenant_id = $1 AND name = $2", [
        tenantId,
        name,
      ]);
      return row && toTracingProjectRecord(row);
    },
  };
}

function memoryInspector(store: MemoryStore): StoreInspector {
  return {
    async listDeployments(tenantId, query, nowUs) {
      return store.page(tenantId, query, nowUs).map((entry) => deploymentAsOf(entry.record, nowUs));
    },
    async listRevisions(tenantId, deploymentId, nowUs) {
      const deployment = store.deploymentsById.get(deploymentId);
      if (!deployment || deployment.record.deployment.tenant_id !== tenantId) return [];
      return [...store.revisions.values()]
        .filter((revision) => revision.deploymentId === deploymentId)
        .sort((a, b) => b.createdUs - a.createdUs || (a.id < b.id ? 1 : -1))
        .map((revision) => ({
          ...revision,
          status:
            revision.status === "QUEUED" && provisionedBy("AWAITING_DATABASE", deployment.record.readyUs, nowUs)
              ? "DEPLOYED"
              : revision.status,
        }));
    },
    async getTracingProject(tenantId, name) {
      const project = store.tracingProjects.get(`${tenantId} ${name}`);
      return project && { ...project };
    },
  };
}
