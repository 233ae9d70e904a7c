/** Which recorded survivors the isolated second pass tests again (D-360). */

/** A mutant's result as Stryker's incremental file records it (the fields the retest reads: its place, for run.ts's selection). */
export interface RecordedMutant {
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number } };
}

/**
 * Whether a survivor must be tested again with a fresh module graph: a static one, or one whose code runs while its
 * module loads (`loadsWithModule`, asked only of a survivor not marked static, since it parses the file). Stryker
 * gives a static mutant that a test also covers (a "hybrid") to that test at run time in the first pass, in its kept
 * module graph, where the code that loads once already ran unmutated, so its survival there shows nothing; such a
 * hybrid is recorded as not static, so its place says it instead. A recorded result does not say which pass judged
 * it (its tests completed can exceed the tests that cover it, and an isolated run skips some).
 */
export function needsIsolatedRun(mutant: RecordedMutant, loadsWithModule: () => boolean): boolean {
  return mutant.status === "Survived" && (mutant.static === true || loadsWithModule());
}
