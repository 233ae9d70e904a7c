/** The kills of a run of some phases only (MUTATION_PHASES), kept in the committed incremental file (D-360, D-362). */

/** A mutant's result as the incremental file records it (the fields the merge reads). */
interface Result {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** An incremental file (the fields the merge reads and writes). */
export interface Incremental {
  files: Record<string, { mutants: Result[] }>;
  testFiles?: Record<string, unknown>;
}

const key = (file: string, m: Result) =>
  [
    file,
    m.location.start.line,
    m.location.start.column,
    m.location.end.line,
    m.location.end.column,
    m.mutatorName,
    m.replacement,
  ].join("\u0000");
const detected = (status: string) => status === "Killed" || status === "Timeout";

/**
 * Puts into `committed` each result of `run` that detected a mutant `committed` holds unkilled, with the test files
 * that killed it; returns how many. A kill by some phases is a kill by the whole harness (no phase shares a target
 * with another); a survivor of some phases says nothing, so every other result of `committed` stays as it is.
 */
export function recordKills(committed: Incremental, run: Incremental): number {
  const fresh = new Map<string, Result>();
  for (const [file, results] of Object.entries(run.files))
    for (const mutant of results.mutants) if (detected(mutant.status)) fresh.set(key(file, mutant), mutant);
  let kept = 0;
  for (const [file, results] of Object.entries(committed.files))
    results.mutants = results.mutants.map((mutant) => {
      const kill = fresh.get(key(file, mutant));
      if (!kill || detected(mutant.status)) return mutant;
      kept++;
      return kill;
    });
  committed.testFiles = { ...run.testFiles, ...committed.testFiles };
  return kept;
}
