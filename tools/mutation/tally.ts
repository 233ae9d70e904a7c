/** Counts of a Stryker JSON report (mutation-testing-report-schema) and the Markdown of docs/mutation.md (D-360). */

/** One mutant as Stryker's JSON report holds it (the fields read here). */
export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number } };
}

/** Stryker's JSON report (the fields read here). */
export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

/** A triaged survivor of survivors.json: where, which mutator, what it became, and why it may live. */
export interface Survivor {
  file: string;
  line: number;
  column: number;
  mutator: string;
  replacement: string;
  /** equivalent | not observable over HTTP | open choice | missing check (the check it calls for, to add) */
  kind: "equivalent" | "not-observable" | "open-choice" | "missing-check";
  reason: string;
}

/** Status counts and the score: detected (killed, timed out) over every valid mutant; covered leaves out the ones no check reached. */
interface Tally {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Ignored, compile or runtime errors: counted by Stryker outside the score. */
  other: number;
  score: number;
  coveredScore: number;
}

export function tally(mutants: ReportMutant[]): Tally {
  const count = (status: string) => mutants.filter((mutant) => mutant.status === status).length;
  const killed = count("Killed");
  const timeout = count("Timeout");
  const survived = count("Survived");
  const noCoverage = count("NoCoverage");
  const valid = killed + timeout + survived + noCoverage;
  const covered = killed + timeout + survived;
  return {
    killed,
    timeout,
    survived,
    noCoverage,
    other: mutants.length - valid,
    score: valid === 0 ? 100 : (100 * (killed + timeout)) / valid,
    coveredScore: covered === 0 ? 100 : (100 * (killed + timeout)) / covered,
  };
}

/** Whether a survivor of the report is triaged in survivors.json (same file, line, column and mutator). */
function isTriaged(file: string, mutant: ReportMutant, survivors: Survivor[]): boolean {
  return survivors.some(
    (entry) =>
      entry.file === file &&
      entry.line === mutant.location.start.line &&
      entry.column === mutant.location.start.column &&
      entry.mutator === mutant.mutatorName,
  );
}

const row = (name: string, t: Tally) =>
  `| ${name} | ${t.score.toFixed(1)} | ${t.coveredScore.toFixed(1)} | ${t.killed} | ${t.timeout} | ${t.survived} | ${t.noCoverage} |`;

/** docs/mutation.md's figures: the totals, each file, and the survivors still to triage. */
export function reportMarkdown(
  report: MutationReport,
  survivors: Survivor[],
  run: { commit: string; date: string; minutes?: string; notRun?: string[] },
): string {
  const notRun = run.notRun ?? [];
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  const all = tally(files.flatMap(([, file]) => file.mutants));
  const untriaged = files.flatMap(([name, file]) =>
    file.mutants
      .filter(
        (mutant) =>
          (mutant.status === "Survived" || mutant.status === "NoCoverage") && !isTriaged(name, mutant, survivors),
      )
      .map(
        (mutant) =>
          `${name}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} (${mutant.status})`,
      ),
  );
  return [
    "<!-- Written by tools/mutation/report.ts from Stryker's JSON report (npm run mutation); do not edit by hand. -->",
    "# Mutation report",
    "",
    `Commit ${run.commit}, ${run.date}${run.minutes ? `, ${run.minutes} min` : ""}: ${all.killed + all.timeout + all.survived + all.noCoverage} mutants, score ${all.score.toFixed(1)}% (${all.coveredScore.toFixed(1)}% of the mutants a check reached)${all.other > 0 ? `; ${all.other} more not judged (static mutants of a run stopped after its first pass, or errors)` : ""}. How the run works and how it is judged: [mutation testing](mutation-testing.md) (D-360).`,
    "",
    "| file | score % | covered % | killed | timed out | survived | no coverage |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    row("all files", all),
    ...files.map(([name, file]) => row(name, tally(file.mutants))),
    "",
    ...(notRun.length > 0
      ? [
          `Files of the scope with no recorded result (${notRun.length}: not run yet, or nothing to mutate, such as a file of types only): ${notRun.join(", ")}.`,
          "",
        ]
      : []),
    `Survivors and unreached mutants not yet triaged in tools/mutation/survivors.json: ${untriaged.length}.`,
    "",
    ...untriaged.slice(0, 200).map((line) => `- ${line}`),
    ...(untriaged.length > 200 ? [`- … and ${untriaged.length - 200} more (the HTML report lists every one)`] : []),
    "",
  ].join("\n");
}
