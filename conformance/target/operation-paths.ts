/**
 * Where the operations the interface spec shows no method and path for live on a target (D-382): operation 4 is an
 * input (`--operation-path listManagedCodehostRepositories='GET /v1/…/{integration_id}/…'`), the profile's path (D-10)
 * its default. The preflight, the checks, the replay lines and the reports use it.
 */
import { type OperationId, operation } from "../../contract/index.js";
import type { ConformanceConfig } from "../cli/run-config.js";

/** The operations whose method and path the interface spec leaves open. */
const openOperations: readonly OperationId[] = ["listManagedCodehostRepositories"];

/** An operation's method (upper case) and path template. */
export interface OperationRoute {
  method: string;
  path: string;
}

/** The routes a run was given, by operation id. */
export type OperationPaths = Partial<Record<OperationId, OperationRoute>>;

/** The method and path template of an operation on this target: the one given, else the contract's. */
export function routeOf(config: Pick<ConformanceConfig, "operationPaths">, id: OperationId): OperationRoute {
  const given = config.operationPaths?.[id]; // a configuration built by hand (a test, a program) may carry none
  if (given) return given;
  const op = operation(id);
  return { method: op.method.toUpperCase(), path: op.path };
}

/**
 * Parses `ID=METHOD /path/{integration_id}` lines; returns the routes or the one-line reason a line is wrong. Only an
 * operation the interface leaves open may be moved, and its path keeps the contract's path parameters.
 */
export function parseOperationPaths(lines: readonly string[]): OperationPaths | string {
  const out: OperationPaths = {};
  for (const line of lines) {
    const match = /^\s*([A-Za-z]+)\s*[=:]\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(line);
    if (!match) return `--operation-path must be 'OPERATION=METHOD /path', got '${line}'`;
    const [, id, method, path] = match as unknown as [string, string, string, string];
    if (!openOperations.includes(id as OperationId))
      return `--operation-path: ${id} is not an operation whose path the interface spec leaves open (${openOperations.join(", ")})`;
    const wanted = operation(id as OperationId).path.match(/\{[a-z_]+\}/g) ?? [];
    const missing = wanted.filter((p) => !path.includes(p));
    if (missing.length > 0) return `--operation-path: the path of ${id} must hold ${missing.join(", ")}, got '${path}'`;
    out[id as OperationId] = { method: method.toUpperCase(), path };
  }
  return out;
}

/** The `--operation-path` values of a configuration, for a replay line. */
export function operationPathLines(config: Pick<ConformanceConfig, "operationPaths">): string[] {
  return Object.entries(config.operationPaths ?? {}).map(([id, route]) => `${id}=${route!.method} ${route!.path}`);
}
