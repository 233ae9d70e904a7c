/** Compares the verdicts of several runs of the suite check by check (D-222): the table `npm run verdicts` prints. */

/** One run: its label, how long it took and each check's verdict. */
export interface RunVerdicts {
  label: string;
  seconds: number;
  verdicts: { id: string; level: string; status: string }[];
}

/** Whether every run gave every check the same verdict, and the report: one line per run, then each check that differs. */
export function compareVerdicts(runs: RunVerdicts[]): { same: boolean; text: string } {
  const ids = [...new Set(runs.flatMap((run) => run.verdicts.map((verdict) => verdict.id)))].sort();
  const statusOf = (run: RunVerdicts, id: string) =>
    run.verdicts.find((verdict) => verdict.id === id)?.status ?? "not run";
  const differing = ids.filter((id) => new Set(runs.map((run) => statusOf(run, id))).size > 1);
  const count = (run: RunVerdicts, level: string, status: string) =>
    run.verdicts.filter((verdict) => verdict.level === level && verdict.status === status).length;
  const lines = runs.map(
    (run) =>
      `  ${run.label.padEnd(34)} MUST ${count(run, "MUST", "pass")}/${count(run, "MUST", "fail")}/${count(run, "MUST", "skip")}  SHOULD ${count(run, "SHOULD", "pass")}/${count(run, "SHOULD", "fail")}/${count(run, "SHOULD", "skip")} (passed/failed/skipped)  ${run.seconds.toFixed(0)} s`,
  );
  lines.push(
    differing.length === 0
      ? `  every one of ${ids.length} checks has the same verdict in all ${runs.length} runs`
      : `  ${differing.length} of ${ids.length} checks differ between runs:\n${differing.map((id) => `    ${id}: ${runs.map((run) => statusOf(run, id)).join(", ")}`).join("\n")}`,
  );
  return { same: differing.length === 0, text: lines.join("\n") };
}
