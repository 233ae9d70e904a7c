/** Counts of a Stryker JSON report (mutation-testing-report-schema) and the Markdown of docs/mutation.md (D-360). */

/** One mutant as Stryker's JSON report holds it (the fields read here). */
export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** Stryker's JSON report (the fields read here). */
export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

/** A triaged survivor of survivors.json: where it starts and ends, which mutator, what it became, and why it may live. */
export interface Survivor {
  file: string;
  line: number;
  column: number;
  /** Where the mutated code ends: two mutants of one start, mutator and replacement (a condition and its first operand) differ here. */
  endLine: number;
  endColumn: number;
  mutator: string;
  replacement: string;
  /**
   * equivalent | not observable over HTTP | harness-blind (a client sees it over HTTP, the harness of targets.ts
   * does not reach it: concurrency, a failing store) | open choice | missing check (the check it calls for, to add)
   */
  kind: "equivalent" | "not-observable" | "harness-blind" | "open-choice" | "missing-check";
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

/**
 * A survivor's key: file, start, end, mutator and replacement, so two mutants of one place never share a triage
 * (`a === b || c` to `false` and `a === b` to `false` start at one column and end at two).
 */
function keyOf(
  file: string,
  start: { line: number; column: number },
  end: { line: number; column: number },
  mutator: string,
  replacement: string | undefined,
): string {
  return `${file}:${start.line}:${start.column}-${end.line}:${end.column} ${mutator} ${JSON.stringify(replacement ?? "")}`;
}

const mutantKey = (file: string, mutant: ReportMutant) =>
  keyOf(file, mutant.location.start, mutant.location.end, mutant.mutatorName, mutant.replacement);

const survivorKey = (entry: Survivor) =>
  keyOf(
    entry.file,
    { line: entry.line, column: entry.column },
    { line: entry.endLine, column: entry.endColumn },
    entry.mutator,
    entry.replacement,
  );

/** survivors.json by key (the first entry of a repeated key; triageProblems names the repeats). */
function triageIndex(survivors: Survivor[]): Map<string, Survivor> {
  const index = new Map<string, Survivor>();
  for (const entry of survivors) if (!index.has(survivorKey(entry))) index.set(survivorKey(entry), entry);
  return index;
}

const unkilled = (mutant: ReportMutant) => mutant.status === "Survived" || mutant.status === "NoCoverage";

/**
 * What makes survivors.json untrustworthy against a report: an entry no unkilled mutant of a reported file matches
 * (stale: killed since, or its line moved), a key given twice, and a key given two kinds.
 */
export function triageProblems(report: MutationReport, survivors: Survivor[]): string[] {
  const live = new Set(
    Object.entries(report.files).flatMap(([file, { mutants }]) =>
      mutants.filter(unkilled).map((mutant) => mutantKey(file, mutant)),
    ),
  );
  const kinds = new Map<string, Survivor["kind"][]>();
  for (const entry of survivors) kinds.set(survivorKey(entry), [...(kinds.get(survivorKey(entry)) ?? []), entry.kind]);
  const problems: string[] = [];
  for (const entry of survivors)
    if (entry.file in report.files && !live.has(survivorKey(entry)))
      problems.push(`${survivorKey(entry)}: matches no unkilled mutant`);
  for (const [key, given] of kinds) {
    if (new Set(given).size > 1) problems.push(`${key}: two kinds (${[...new Set(given)].join(", ")})`);
    else if (given.length > 1) problems.push(`${key}: given ${given.length} times`);
  }
  return problems;
}

const triageKinds = ["equivalent", "not-observable", "harness-blind", "open-choice", "missing-check"] as const;

type ReportFiles = [string, { mutants: ReportMutant[] }][];

/**
 * The unkilled mutants of some files by triage kind, and the score less the equivalent ones: killed (or timed out)
 * over every valid mutant but those triaged equivalent. Not-observable, harness-blind and open-choice stay in the denominator: the
 * way up is a harness that observes more or a check that closes the choice, never a reason text.
 */
function triageRow(name: string, files: ReportFiles, index: Map<string, Survivor>): string {
  const counts: Record<string, number> = Object.fromEntries([...triageKinds, "untriaged"].map((kind) => [kind, 0]));
  const all = tally(files.flatMap(([, file]) => file.mutants));
  for (const [file, { mutants }] of files)
    for (const mutant of mutants.filter(unkilled)) {
      const kind = index.get(mutantKey(file, mutant))?.kind ?? "untriaged";
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
  const detected = all.killed + all.timeout;
  const denominator = detected + all.survived + all.noCoverage - (counts.equivalent ?? 0);
  const share = denominator === 0 ? 100 : (100 * detected) / denominator;
  const cells = [...triageKinds, "untriaged"].map((kind) => counts[kind]);
  return `| ${name} | ${cells.join(" | ")} | ${detected} of ${denominator}, ${share.toFixed(1)} |`;
}

const row = (name: string, t: Tally) =>
  `| ${name} | ${t.score.toFixed(1)} | ${t.coveredScore.toFixed(1)} | ${t.killed} | ${t.timeout} | ${t.survived} | ${t.noCoverage} |`;

/** The folder a file's figures are summed under: its directory. */
const folderOf = (file: string) => file.slice(0, file.lastIndexOf("/") + 1);

/** A raw-score row of each area (server, sandbox engine) and each folder. */
function areaRows(files: ReportFiles): string[] {
  const groups = new Map<string, ReportMutant[]>();
  const add = (name: string, mutants: ReportMutant[]) => groups.set(name, [...(groups.get(name) ?? []), ...mutants]);
  for (const [file, { mutants }] of files) {
    add(file.startsWith("server/") ? "server (all)" : "sandbox engine (all)", mutants);
    add(folderOf(file), mutants);
  }
  const order = (name: string) => (name.endsWith("(all)") ? `0${name}` : `1${name}`);
  return [...groups.entries()]
    .sort(([a], [b]) => order(a).localeCompare(order(b)))
    .map(([name, mutants]) => row(name, tally(mutants)));
}

/** docs/mutation.md's figures: the raw score first, by area and folder, then the triage, each file and the untriaged. */
export function reportMarkdown(
  report: MutationReport,
  survivors: Survivor[],
  run: { commit: string; date: string; minutes?: string; notRun?: string[] },
): string {
  const notRun = run.notRun ?? [];
  const index = triageIndex(survivors);
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  const all = tally(files.flatMap(([, file]) => file.mutants));
  const untriaged = files.flatMap(([name, file]) =>
    file.mutants
      .filter((mutant) => unkilled(mutant) && !index.has(mutantKey(name, mutant)))
      .map(
        (mutant) =>
          `${name}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} (${mutant.status})`,
      ),
  );
  const header = "| files | score % | covered % | killed | timed out | survived | no coverage |";
  return [
    "<!-- Written by tools/mutation/report.ts from Stryker's JSON report (npm run mutation); do not edit by hand. -->",
    "# Mutation report",
    "",
    `Last recorded run: commit ${run.commit}, ${run.date}${run.minutes ? `, ${run.minutes} min` : ""}. Raw score: ${all.score.toFixed(1)}% of ${all.killed + all.timeout + all.survived + all.noCoverage} mutants killed or timed out (${all.coveredScore.toFixed(1)}% of the mutants a check reached)${all.other > 0 ? `; ${all.other} more not judged (static mutants of a run stopped after its first pass, or errors)` : ""}. How the run works and how it is judged: [mutation testing](mutation-testing.md) (D-360).`,
    "",
    "## Raw score by area and folder",
    "",
    header,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    row("all files", all),
    ...areaRows(files),
    "",
    "## Unkilled mutants by triage",
    "",
    "Survived or reached by no check, by their triage in tools/mutation/survivors.json; the last column is the score",
    "less the mutants triaged equivalent (killed over every valid mutant but those): not-observable, harness-blind",
    "(a client sees the difference over HTTP, the harness does not reach it) and open-choice mutants stay in it.",
    "",
    "| files | equivalent | not observable | harness-blind | open choice | missing check | untriaged | killed of every valid mutant but the equivalent, % |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    triageRow("all files", files, index),
    triageRow(
      "server (all)",
      files.filter(([name]) => name.startsWith("server/")),
      index,
    ),
    triageRow(
      "sandbox engine (all)",
      files.filter(([name]) => name.startsWith("mock/")),
      index,
    ),
    "",
    "## Each file",
    "",
    header,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
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
