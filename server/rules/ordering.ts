/** Ordering of list responses (D-08): repositories by owner then name; deployments newest first and providers oldest first are done by the Store. */
import type { CodehostRepositoryEntry } from "../codehost/port.js";

/** Byte order of the UTF-8 encodings (D-08), which is code-point order; `<` on strings compares UTF-16 units and differs above U+FFFF. */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export function sortRepositories(repositories: CodehostRepositoryEntry[]): CodehostRepositoryEntry[] {
  return [...repositories].sort((a, b) => compare(a.owner, b.owner) || compare(a.name, b.name) || a.id - b.id);
}
