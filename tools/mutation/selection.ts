/** Which mutants a narrowed run mutates (D-361): the changed lines of the files in scope, bounded, else a fixed sample. */
import { matchesGlob } from "node:path";

/** scope.json: what is mutated, what is left out and why. */
export interface Scope {
  include: string[];
  exclude: { glob: string; reason: string }[];
  /** Line ranges a run with no changed file in scope mutates instead (`file:from-to`). */
  sample: string[];
}

/** Whether a repository path is one the full run mutates. */
export function inScope(scope: Scope, file: string): boolean {
  return (
    scope.include.some((glob) => matchesGlob(file, glob)) &&
    !scope.exclude.some((entry) => matchesGlob(file, entry.glob))
  );
}

/** A file's changed lines, as `git diff --unified=0` heads its hunks (`@@ -a,b +c,d @@`). */
interface ChangedFile {
  file: string;
  /** Inclusive line ranges of the new file. */
  ranges: [number, number][];
}

/** The changed line ranges of each file of `git diff --unified=0` output; a file only deleted from has none. */
export function changedRanges(diff: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let current: ChangedFile | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      const path = line.slice(4);
      current = path === "/dev/null" ? undefined : { file: path.replace(/^b\//, ""), ranges: [] };
      if (current) files.push(current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !current) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count > 0) current.ranges.push([start, start + count - 1]);
  }
  return files.filter((file) => file.ranges.length > 0);
}

/**
 * Stryker's `--mutate` entries for the changed lines of the files in scope, at most `maxLines` lines in all
 * (the first ones in diff order), so that a large commit still fits CI's time; the sample when none is in scope.
 */
export function mutateForChanges(
  scope: Scope,
  changed: ChangedFile[],
  maxLines: number,
): { mutate: string[]; lines: number; cut: boolean; sampled: boolean } {
  const mutate: string[] = [];
  let lines = 0;
  let cut = false;
  for (const { file, ranges } of changed.filter((entry) => inScope(scope, entry.file)))
    for (const [from, to] of ranges) {
      const room = maxLines - lines;
      if (room <= 0) {
        cut = true;
        continue;
      }
      const end = Math.min(to, from + room - 1);
      if (end < to) cut = true;
      mutate.push(`${file}:${from}-${end}`);
      lines += end - from + 1;
    }
  if (mutate.length === 0) return { mutate: scope.sample, lines: 0, cut: false, sampled: true };
  return { mutate, lines, cut, sampled: false };
}

/**
 * Whether a run mutates line `line` of `file`: one of its `--mutate` entries (a glob, or a `file:from-to` range as
 * Stryker reads it, columns optional) names it; with no entries, the full run mutates every file in scope.
 */
export function mutatesLine(scope: Scope, mutate: string[] | undefined, file: string, line: number): boolean {
  if (!mutate) return inScope(scope, file);
  return mutate.some((entry) => {
    const range = /^(.+?):(\d+)(?::\d+)?-(\d+)(?::\d+)?$/.exec(entry);
    if (!range) return matchesGlob(file, entry);
    return range[1] === file && line >= Number(range[2]) && line <= Number(range[3]);
  });
}
