/** SQL of the list-deployments filters (D-39 to D-45) for both dialects, combined with AND. */
import type { DeploymentQuery } from "../domain/records.js";
import { provisionedSql, stillProvisioningSql } from "./provisioned-sql.js";

type Dialect = "sqlite" | "postgres";

/** The WHERE conditions after `tenant_id = <first parameter>` and their parameters. */
export function filterConditions(
  dialect: Dialect,
  query: DeploymentQuery,
  nowUs: number,
  firstIndex: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind = (value: unknown): string => {
    params.push(value);
    return dialect === "sqlite" ? "?" : `$${firstIndex + params.length - 1}`;
  };
  const list = (values: string[]): string =>
    dialect === "sqlite"
      ? `(SELECT value FROM json_each(${bind(JSON.stringify(values))}))`
      : `(SELECT unnest(${bind(values)}::text[]))`;
  const conditions: string[] = [];
  if (query.matchNothing) conditions.push("1 = 0");
  if (query.nameContains !== undefined) {
    // A case-insensitive substring test: '%' and '_' in the filter are plain characters (D-84).
    const lower = query.nameContains.toLowerCase();
    if (dialect === "postgres") {
      // LIKE with its wildcards escaped, so the pg_trgm GIN index can serve it.
      conditions.push(`name_lower LIKE ${bind(likeContains(lower))}`);
    } else if (usesNameIndex(query)) {
      // The trigram index finds the candidates; instr keeps the exact substring semantics.
      conditions.push(
        `id IN (SELECT deployment_id FROM deployments_name_index WHERE deployments_name_index MATCH ${bind(ftsPhrase(lower))})`,
      );
      conditions.push(`instr(name_lower, ${bind(lower)}) > 0`);
    } else {
      // Fewer than 3 characters hold no trigram: a scan of the tenant.
      conditions.push(`instr(name_lower, ${bind(lower)}) > 0`);
    }
  }
  if (query.statuses !== undefined) {
    const wanted = new Set(query.statuses);
    const alternatives: string[] = [];
    // READY is also a deployment whose provisioning ended but is not stored yet (D-53).
    if (wanted.has("READY")) alternatives.push(`status = 'READY' OR ${provisionedSql(bind(nowUs))}`);
    if (wanted.has("AWAITING_DATABASE")) alternatives.push(stillProvisioningSql(bind(nowUs)));
    const others = [...wanted].filter((s) => s !== "READY" && s !== "AWAITING_DATABASE");
    if (others.length > 0) alternatives.push(`status IN ${list(others)}`);
    conditions.push(alternatives.length > 0 ? `(${alternatives.join(" OR ")})` : "1 = 0");
  }
  if (query.deploymentIds !== undefined) conditions.push(`id IN ${list(query.deploymentIds)}`);
  if (query.remoteReconciled !== undefined)
    conditions.push(query.remoteReconciled ? "listener_id IS NOT NULL" : "listener_id IS NULL");
  if (query.imageVersion !== undefined) conditions.push(`image_version = ${bind(query.imageVersion)}`);
  return { sql: conditions.map((c) => ` AND ${c}`).join(""), params };
}

/** Whether SQLite serves the name filter from its trigram index: only a needle of 3 or more characters has a trigram. */
export function usesNameIndex(query: DeploymentQuery): boolean {
  return query.nameContains !== undefined && [...query.nameContains.toLowerCase()].length >= 3;
}

/** An FTS5 phrase of the needle: its trigrams in a row, i.e. the needle as a substring. */
export function ftsPhrase(needle: string): string {
  return `"${needle.replaceAll('"', '""')}"`;
}

/** A LIKE pattern matching values that contain the needle, with `\\`, `%` and `_` escaped (PostgreSQL's default escape character). */
function likeContains(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, "\\$&")}%`;
}
