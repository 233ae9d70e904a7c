/** SQL of the list-deployments filters (profile choice 8) for both dialects, combined with AND. */
import type { DeploymentQuery } from "./records.js";

export type Dialect = "sqlite" | "postgres";

/** Whether the query has any filter; without one the page is an index seek on the sequence number. */
export function isUnfiltered(query: DeploymentQuery): boolean {
  return (
    !query.matchNothing &&
    query.nameContains === undefined &&
    query.statuses === undefined &&
    query.deploymentIds === undefined &&
    query.remoteReconciled === undefined &&
    query.imageVersion === undefined
  );
}

/** The WHERE conditions after `tenant_id = <first parameter>` and their parameters. */
export function filterConditions(dialect: Dialect, query: DeploymentQuery, nowUs: number, firstIndex: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind = (value: unknown): string => {
    params.push(value);
    return dialect === "sqlite" ? "?" : `$${firstIndex + params.length - 1}`;
  };
  const list = (values: string[]): string =>
    dialect === "sqlite" ? `(SELECT value FROM json_each(${bind(JSON.stringify(values))}))` : `(SELECT unnest(${bind(values)}::text[]))`;
  const conditions: string[] = [];
  if (query.matchNothing) conditions.push("1 = 0");
  if (query.nameContains !== undefined) {
    // A substring test, not LIKE: '%' and '_' in the filter are plain characters.
    const needle = bind(query.nameContains.toLowerCase());
    conditions.push(dialect === "sqlite" ? `instr(name_lower, ${needle}) > 0` : `strpos(name_lower, ${needle}) > 0`);
  }
  if (query.statuses !== undefined) {
    const wanted = new Set(query.statuses);
    const alternatives: string[] = [];
    // READY is also a deployment whose provisioning ended but is not stored yet (profile choice 12).
    if (wanted.has("READY")) alternatives.push(`status = 'READY' OR (status = 'AWAITING_DATABASE' AND ready_us <= ${bind(nowUs)})`);
    if (wanted.has("AWAITING_DATABASE")) alternatives.push(`(status = 'AWAITING_DATABASE' AND ready_us > ${bind(nowUs)})`);
    const others = [...wanted].filter((s) => s !== "READY" && s !== "AWAITING_DATABASE");
    if (others.length > 0) alternatives.push(`status IN ${list(others)}`);
    conditions.push(alternatives.length > 0 ? `(${alternatives.join(" OR ")})` : "1 = 0");
  }
  if (query.deploymentIds !== undefined) conditions.push(`id IN ${list(query.deploymentIds)}`);
  if (query.remoteReconciled !== undefined) conditions.push(query.remoteReconciled ? "listener_id IS NOT NULL" : "listener_id IS NULL");
  if (query.imageVersion !== undefined) conditions.push(`image_version = ${bind(query.imageVersion)}`);
  return { sql: conditions.map((c) => ` AND ${c}`).join(""), params };
}
