/**
 * Mutation testing of the reference server and the sandbox engine, judged over HTTP by the conformance suite and by
 * the harness's phases for what no check can send: the sandbox's own API, and a restart on each store (D-360).
 *
 *   npm run mutation                                every file of scope.json; the committed incremental file
 *                                                   makes a rerun after a change cost minutes; writes docs/mutation.md
 *   npm run mutation -- --mutate 'server/rules/**'   these globs or `file:from-to` ranges only (comma-separated)
 *   npm run mutation -- --changed-since HEAD^        the changed lines of the files in scope (at most --max-lines),
 *                                                   else scope.json's sample: CI's step (D-361)
 *   npm run mutation -- --mutate GLOBS --record       a narrowed run whose results join the committed incremental
 *                                                   file, and docs/mutation.md written from it: a full run in parts
 *
 * Two passes (D-360): mutants switched at run time with the test modules kept loaded (import is most of a run's
 * time), then the static ones (code run while loading or while a target starts) with a fresh module graph per
 * mutant; the second pass reuses the first's results through the incremental file. Narrowed runs report to
 * .reports/mutation/ and keep the committed incremental file as it is, unless --record (D-362).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseCommandLine } from "../../common/cli.js";
import { repoRoot } from "../harness/reference.js";
import { loadsWithModule } from "./module-level.js";
import { type Incremental, recordKills } from "./record-kills.js";
import { changedRanges, mutateForChanges, mutatesLine, type Scope } from "./selection.js";
import { needsIsolatedRun, type RecordedMutant } from "./static-retest.js";

const usage = `Usage: npm run mutation -- [--mutate GLOBS] [--changed-since REF [--max-lines N]] [--concurrency N] [--break-below PERCENT]
  --mutate GLOBS       comma-separated globs or file:from-to line ranges (default: every file of tools/mutation/scope.json)
  --changed-since REF  the lines changed since REF of the files in scope (git diff), else the fixed sample of scope.json
  --max-lines N        at most N changed lines are mutated (default 60), so that a run fits CI's 10 minutes
  --concurrency N      Stryker's test runners at once (default 2)
  --break-below P      exit 1 when the score is below P percent (default: never)
  --record             with --mutate: keep the run's results in the committed incremental file beside those of the
                       files it did not mutate, and write docs/mutation.md from that file (D-362); with
                       MUTATION_PHASES (some phases only), keep only its kills
  --force              test every mutant again: Stryker's incremental file follows the mutated code and the test file,
                       not the checks, so a survivor stays one until a forced run after a check changed (D-360)`;

const { values } = parseCommandLine(usage, {
  mutate: { type: "string" },
  "changed-since": { type: "string" },
  "max-lines": { type: "string", default: "60" },
  concurrency: { type: "string", default: "2" },
  "break-below": { type: "string" },
  force: { type: "boolean", default: false },
  record: { type: "boolean", default: false },
});
if (values.record && !values.mutate) {
  console.error("--record takes --mutate: a full run records its results already");
  process.exit(2);
}

const scope = JSON.parse(readFileSync(join(repoRoot, "tools/mutation/scope.json"), "utf8")) as Scope;
const committedIncremental = "tools/mutation/stryker-incremental.json";
const reportDir = ".reports/mutation";

/** The mutate list of a narrowed run, or undefined for the full one. */
function narrowed(): string[] | undefined {
  if (values.mutate) return values.mutate.split(",").map((entry) => entry.trim());
  const since = values["changed-since"];
  if (!since) return undefined;
  // only TypeScript is ever in scope: the committed incremental file alone is megabytes of diff on one line
  const diff = spawnSync("git", ["diff", "--unified=0", "--no-color", since, "--", "*.ts"], {
    cwd: repoRoot,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (diff.status !== 0) throw new Error(`git diff ${since} failed: ${diff.error?.message ?? diff.stderr}`);
  const picked = mutateForChanges(scope, changedRanges(diff.stdout), Number(values["max-lines"]));
  console.log(
    picked.sampled
      ? `No file in scope changed since ${since}: the fixed sample (${picked.mutate.join(", ")})`
      : `${picked.lines} changed lines since ${since}${picked.cut ? ` (cut at --max-lines ${values["max-lines"]})` : ""}: ${picked.mutate.join(", ")}`,
  );
  return picked.mutate;
}

/** One Stryker pass; its exit code. */
function stryker(args: string[], isolate: boolean): number {
  const run = spawnSync(
    process.execPath,
    [
      join(repoRoot, "node_modules/@stryker-mutator/core/bin/stryker.js"),
      "run",
      "tools/mutation/stryker.config.mjs",
      ...args,
    ],
    { cwd: repoRoot, stdio: "inherit", env: { ...process.env, MUTATION_ISOLATE: String(isolate) } },
  );
  return run.status ?? 1;
}

/**
 * The incremental file without each mutant's statusReason (the failing check's whole report, with the run's random
 * names): Stryker reuses a result by its status and the checks that covered and killed it, and the committed file
 * then changes only where a result did.
 */
function compactIncremental(path: string): void {
  if (!existsSync(path)) return;
  const report = JSON.parse(readFileSync(path, "utf8")) as {
    files: Record<string, { mutants: { statusReason?: string }[] }>;
  };
  for (const file of Object.values(report.files)) for (const mutant of file.mutants) delete mutant.statusReason;
  writeFileSync(path, `${JSON.stringify(report)}\n`);
}

/**
 * Drops the results of this run's static survivors and of its survivors in code run while a module loads
 * (needsIsolatedRun), so that the second pass tests each again with a fresh module graph against every test (D-360):
 * about a minute each, for the few in the run's lines.
 */
function retestStaticSurvivors(path: string, mutate: string[] | undefined): number {
  const report = JSON.parse(readFileSync(path, "utf8")) as { files: Record<string, { mutants: RecordedMutant[] }> };
  let dropped = 0;
  for (const [file, results] of Object.entries(report.files)) {
    // parsed only for a file with a survivor in the run's lines: the report holds every file of the scope
    let loads: ((line: number, column: number) => boolean) | undefined;
    const loadsAt = (line: number, column: number) => {
      loads ??= loadsWithModule(existsSync(join(repoRoot, file)) ? readFileSync(join(repoRoot, file), "utf8") : "");
      return loads(line, column);
    };
    results.mutants = results.mutants.filter((mutant) => {
      const { line, column } = mutant.location.start;
      const retest = mutatesLine(scope, mutate, file, line) && needsIsolatedRun(mutant, () => loadsAt(line, column));
      if (retest) dropped++;
      return !retest;
    });
  }
  writeFileSync(path, `${JSON.stringify(report)}\n`);
  return dropped;
}

const mutate = narrowed();
const incremental = mutate ? join(reportDir, "incremental.json") : committedIncremental;
// a narrowed run starts from the committed results and leaves them as they are
if (mutate && existsSync(join(repoRoot, committedIncremental))) {
  // a fresh checkout has no report folder yet
  mkdirSync(join(repoRoot, reportDir), { recursive: true });
  copyFileSync(join(repoRoot, committedIncremental), join(repoRoot, incremental));
}
const common = [
  "--incrementalFile",
  incremental,
  "--concurrency",
  values.concurrency,
  // the scope's exclusions hold for a narrowed run too (a glob over a folder takes its tests otherwise)
  ...(mutate ? ["--mutate", [...mutate, ...scope.exclude.map((entry) => `!${entry.glob}`)].join(",")] : []),
];
const started = Date.now();
console.log(
  `Load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
// --force only in the first pass: the second then reuses its fresh results and tests the static mutants it left,
// and every static survivor of the run's lines again (retestStaticSurvivors)
if (stryker([...common, "--ignoreStatic", ...(values.force ? ["--force"] : [])], false) !== 0) process.exit(1);
console.log(
  `Static survivors of the first pass tested again in isolation: ${retestStaticSurvivors(join(repoRoot, incremental), mutate)}`,
);
if (stryker(common, true) !== 0) process.exit(1);
compactIncremental(join(repoRoot, incremental));
// Stryker's report of a narrowed run carries the incremental file's results of every file it did not mutate
if (values.record && process.env.MUTATION_PHASES) {
  const committed = JSON.parse(readFileSync(join(repoRoot, committedIncremental), "utf8")) as Incremental;
  const kept = recordKills(committed, JSON.parse(readFileSync(join(repoRoot, incremental), "utf8")) as Incremental);
  writeFileSync(join(repoRoot, committedIncremental), `${JSON.stringify(committed)}\n`);
  console.log(`MUTATION_PHASES=${process.env.MUTATION_PHASES}: ${kept} kills recorded, no survivor (D-362)`);
} else if (values.record) copyFileSync(join(repoRoot, incremental), join(repoRoot, committedIncremental));
const recorded = !mutate || values.record;
const minutes = (Date.now() - started) / 60_000;
console.log(
  `Mutation run finished in ${minutes.toFixed(1)} min; load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
const report = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    join(repoRoot, "tools/mutation/report.ts"),
    "--out",
    recorded ? "docs/mutation.md" : join(reportDir, "mutation.md"),
    ...(values.record ? ["--json", committedIncremental] : ["--minutes", minutes.toFixed(1)]),
    ...(values["break-below"] ? ["--break-below", values["break-below"]] : []),
    ...(mutate && !values.record ? ["--files", mutate.join(",")] : []),
  ],
  { cwd: repoRoot, stdio: "inherit" },
);
process.exit(report.status ?? 1);
