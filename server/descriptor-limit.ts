/** The default cap on open connections: the process's soft descriptor limit less headroom for the store, logs and the runtime (D-465). */
import { readFileSync } from "node:fs";

/** The cap when the descriptor limit cannot be read (no /proc): what a 1,024 limit leaves. */
export const fallbackMaxConnections = 768;

/** The soft `Max open files` of a /proc/<pid>/limits text, or undefined when absent or unlimited. */
export function softDescriptorLimit(procLimits: string): number | undefined {
  const match = /^Max open files\s+(\d+)\s/m.exec(procLimits);
  return match ? Number(match[1]) : undefined;
}

/**
 * The connections a process with `softLimit` descriptors may hold: a tenth of them, at least 256, stay free for
 * the database (SQLite's files, a PostgreSQL pool), the log, the event loop and the answers that refuse excess.
 */
export function maxConnectionsFor(softLimit: number | undefined): number {
  if (softLimit === undefined) return fallbackMaxConnections;
  return Math.max(1, softLimit - Math.max(256, Math.ceil(softLimit / 10)));
}

/** The default cap of this process (Node raises the soft limit to the hard one at start, so it is read here). */
export function defaultMaxConnections(): number {
  let text: string;
  try {
    text = readFileSync("/proc/self/limits", "utf8");
  } catch {
    return fallbackMaxConnections;
  }
  return maxConnectionsFor(softDescriptorLimit(text));
}
