/**
 * Writes the mutation report (D-360) from Stryker's JSON report: score, killed, survived, timed out and no coverage,
 * in all and by file, with the commit and the date, and the survivors not yet triaged in survivors.json.
 *
 *   tsx tools/mutation/report.ts [--json .reports/mutation/mutation.json] [--out docs/mutation.md] [--break-below P]
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, matchesGlob, resolve } from "node:path";
import { parseCommandLine } from "../../common/cli.js";
import { repoRoot } from "../harness/reference.js";
import { inScope, type Scope } from "./selection.js";
import { type MutationReport, reportMarkdown, type Survivor, tally } from "./tally.js";

const usage = `Usage: tsx tools/mutation/report.ts [--json FILE] [--out FILE] [--minutes M] [--break-below PERCENT] [--files GLOBS]
  --files GLOBS  only these files (comma-separated globs; a file:from-to range counts its file): a narrowed run's report
                 also carries the incremental file's results of every other file`;
const { values } = parseCommandLine(usage, {
  json: { type: "string", default: ".reports/mutation/mutation.json" },
  out: { type: "string", default: "docs/mutation.md" },
  minutes: { type: "string" },
  "break-below": { type: "string" },
  files: { type: "string" },
});

const report = JSON.parse(readFileSync(resolve(repoRoot, values.json), "utf8")) as MutationReport;
if (values.files) {
  const globs = values.files.split(",").map((entry) => entry.replace(/:\d+-\d+$/, ""));
  report.files = Object.fromEntries(
    Object.entries(report.files).filter(([file]) => globs.some((glob) => matchesGlob(file, glob))),
  );
}
const survivors = JSON.parse(readFileSync(join(repoRoot, "tools/mutation/survivors.json"), "utf8")) as {
  survivors: Survivor[];
};
const scope = JSON.parse(readFileSync(join(repoRoot, "tools/mutation/scope.json"), "utf8")) as Scope;
// the score is over the scope as it stands: results of a file since left out of it (with its reason) do not count
report.files = Object.fromEntries(Object.entries(report.files).filter(([file]) => inScope(scope, file)));
// a report recorded in parts (--record, D-362) names the files of the scope no run has reached yet
const notRun = values.files
  ? []
  : execFileSync("git", ["ls-files", "--", "*.ts"], { cwd: repoRoot, encoding: "utf8" })
      .split("\n")
      .filter((file) => file !== "" && inScope(scope, file) && !(file in report.files));
const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
// a report of the committed results names the commit that recorded them, not today's; a fresh run names HEAD
const committed = git("status", "--porcelain", "--", values.json) === "" && git("ls-files", "--", values.json) !== "";
const commit = committed ? git("log", "-1", "--format=%h", "--", values.json) : git("rev-parse", "--short", "HEAD");
const date = committed ? git("log", "-1", "--format=%cs", "--", values.json) : new Date().toISOString().slice(0, 10);
const markdown = reportMarkdown(report, survivors.survivors, { commit, date, minutes: values.minutes, notRun });
writeFileSync(resolve(repoRoot, values.out), markdown);
const all = tally(Object.values(report.files).flatMap((file) => file.mutants));
console.log(
  `Mutation score ${all.score.toFixed(1)}% (${all.killed} killed, ${all.timeout} timed out, ${all.survived} survived, ${all.noCoverage} no coverage): ${values.out}`,
);
const floor = values["break-below"] === undefined ? undefined : Number(values["break-below"]);
if (floor !== undefined && all.score < floor) {
  console.error(`the score ${all.score.toFixed(1)}% is below --break-below ${floor}%`);
  process.exit(1);
}
