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

/** The triage of a survivor of the report in survivors.json (same file, line, column and mutator), if any. */
function triageOf(file: string, mutant: ReportMutant, survivors: Survivor[]): Survivor | undefined {
  return survivors.find(
    (entry) =>
      entry.file === file &&
      entry.line === mutant.location.start.line &&
      entry.column === mutant.location.start.column &&
      entry.mutator === mutant.mutatorName,
  );
}

const triageKinds = ["equivalent", "not-observable", "open-choice", "missing-check"] as const;

/**
 * The unkilled mutants of some files by triage kind, and the share killed of those that can change an answer: every
 * valid mutant but the ones triaged equivalent or not observable over HTTP (the suite's only window). A figure beside
 * Stryker's score, which counts every mutant; it leaves no code out of the run.
 */
function triageRow(name: string, files: [string, { mutants: ReportMutant[] }][], survivors: Survivor[]): string {
  const counts = Object.fromEntries([...triageKinds, "untriaged"].map((kind) => [kind, 0]));
  let detected = 0;
  let valid = 0;
  for (const [file, { mutants }] of files)
    for (const mutant of mutants) {
      if (mutant.status === "Killed" || mutant.status === "Timeout") detected += 1;
      else if (mutant.status !== "Survived" && mutant.status !== "NoCoverage") continue;
      valid += 1;
      if (mutant.status === "Killed" || mutant.status === "Timeout") continue;
      const kind = triageOf(file, mutant, survivors)?.kind ?? "untriaged";
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
  const observable = valid - (counts.equivalent ?? 0) - (counts["not-observable"] ?? 0);
  const share = observable === 0 ? 100 : (100 * detected) / observable;
  const cells = [...triageKinds, "untriaged"].map((kind) => counts[kind]);
  return `| ${name} | ${cells.join(" | ")} | ${detected} of ${observable}, ${share.toFixed(1)} |`;
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
          (mutant.status === "Survived" || mutant.status === "NoCoverage") && !triageOf(name, mutant, survivors),
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
    "Unkilled mutants (survived or reached by no check) by their triage in tools/mutation/survivors.json, and the",
    "mutants killed (or timed out) of those that can change an answer, that is every mutant but the ones triaged",
    "equivalent or not observable over HTTP. Stryker's score above counts every mutant; nothing is left out of the run.",
    "",
    "| files | equivalent | not observable | open choice | missing check | untriaged | killed of those that can change an answer, % |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    triageRow("all files", files, survivors),
    triageRow(
      "server/",
      files.filter(([name]) => name.startsWith("server/")),
      survivors,
    ),
    triageRow(
      "mock/src/engine/",
      files.filter(([name]) => name.startsWith("mock/")),
      survivors,
    ),
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
