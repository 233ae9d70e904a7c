/** Ordering of list responses (D-08): repositories by owner then name; deployments newest first and providers oldest first are done by the Store. */
import type { CodehostRepositoryEntry } from "../codehost/port.js";

/** Binary (code-point) comparison, so the order does not depend on the locale of the process. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortRepositories(repositories: CodehostRepositoryEntry[]): CodehostRepositoryEntry[] {
  return [...repositories].sort((a, b) => compare(a.owner, b.owner) || compare(a.name, b.name) || a.id - b.id);
}
