/**
 * `npm run bench [-- --quick]`: starts every target itself on 127.0.0.1, measures each row with
 * autocannon for a bounded time, prints one table with the targets of docs/benchmarks.md beside the
 * figures, and writes it as JSON to .bench/ (git-ignored). Figures are printed, never asserted.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseCommandLine } from "../../common/cli.js";
import { buildServerIfStale } from "../build/build-server.js";
import { repoRoot } from "../harness/reference.js";
import { beforeAfter, formatSideBySide } from "./before-after.js";
import { fullConfig, quickConfig } from "./config.js";
import {
  type BenchContext,
  baselineRows,
  postgresRow,
  prismRow,
  referenceRowLabels,
  referenceRows,
  skipRows,
  statefulMockStartup,
} from "./scenarios.js";
import { evaluateTargets, formatReport, type Report } from "./table.js";

const usage = `Usage: npm run bench -- [--quick] [--before REF]
  --quick       the CI smoke run: ${quickConfig.largeTenantDeployments} seeded deployments, ${quickConfig.rowSeconds} s per row
                (default: the full run, ${fullConfig.largeTenantDeployments} deployments, ${fullConfig.rowSeconds} s per row)
  --before REF  instead of the table: this checkout's server beside the one built from the git commit REF,
                list limit=20, limit=100 and create in ${fullConfig.sideBySideRounds} alternating rounds (${quickConfig.sideBySideRounds} with --quick)
Writes the table to stdout and as JSON to .bench/; server logs go to .bench/logs/.`;
const { values } = parseCommandLine(usage, { quick: { type: "boolean", default: false }, before: { type: "string" } });
const config = values.quick ? quickConfig : fullConfig;
await buildServerIfStale();
const started = performance.now();
const benchDir = join(repoRoot, ".bench");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const logDir = join(benchDir, "logs", stamp);
mkdirSync(logDir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "bench-"));

const ctx: BenchContext = {
  config,
  dataDir,
  logDir,
  rows: [],
  extras: {},
  log: (message) =>
    process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`),
};

if (values.before !== undefined) {
  const { commit, rows } = await beforeAfter(values.before, config, logDir, ctx.log);
  const text = formatSideBySide(commit, rows);
  writeFileSync(join(benchDir, `before-after-${stamp}.json`), JSON.stringify({ commit, config, rows }, null, 2));
  process.stdout.write(`${text}\n`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

const report: Report = {
  startedAt: new Date().toISOString(),
  mode: config.mode,
  command: `npm run bench${config.mode === "quick" ? " -- --quick" : ""}`,
  machine: {
    nproc: cpus().length,
    memTotalMiB: Math.round(totalmem() / 1024 / 1024),
    cpuModel: cpus()[0]?.model ?? "unknown",
    node: process.version,
    loadAverageAtStart: loadavg(),
  },
  rows: [],
  extras: {},
  targets: [],
};

const failures: string[] = [];
async function group(name: string, run: () => Promise<void>, onFailure: (reason: string) => void): Promise<void> {
  try {
    await run();
  } catch (error) {
    const reason = `${name} failed: ${(error as Error).message}`;
    failures.push(reason);
    ctx.log(reason);
    onFailure((error as Error).message.split("\n")[0]!.slice(0, 160));
  }
}

await group(
  "baselines",
  () => baselineRows(ctx),
  (reason) =>
    skipRows(
      ctx,
      [
        ["bare-http", "bare node:http, constant JSON"],
        ["bare-koa", "bare Koa + @koa/router, same body"],
      ],
      reason,
    ),
);
await group(
  "prism",
  () => prismRow(ctx),
  (reason) => skipRows(ctx, [["prism-list20-off0", "Prism mock: GET /v2/deployments limit=20"]], reason),
);
await group(
  "stateful mock start-up",
  () => statefulMockStartup(ctx),
  () => undefined,
);
if (existsSync(join(repoRoot, "server", "main.ts"))) {
  await group(
    "reference SQLite",
    () => referenceRows(ctx),
    (reason) => skipRows(ctx, referenceRowLabels(config), reason),
  );
  await group(
    "reference PostgreSQL",
    () => postgresRow(ctx),
    (reason) => skipRows(ctx, [["pg-list20-off0", "reference PostgreSQL: list limit=20 offset=0"]], reason),
  );
} else {
  skipRows(
    ctx,
    [...referenceRowLabels(config), ["pg-list20-off0", "reference PostgreSQL: list limit=20 offset=0"]],
    "server/main.ts does not exist yet",
  );
}

// Baselines first (each same-bytes baseline was measured right after its reference row), then the reference rows, then the peers, whatever order they ran in.
const order = [
  "bare-http",
  "bare-koa",
  "koa-bytes-list20",
  "koa-bytes-list100",
  "seed-create",
  "list20-off0",
  "list100-off0",
  "list20-deep",
  "list100-deep",
  "name-contains",
  "name-status",
  "status-ids",
  "fairness-sparse",
  "create",
  "providers",
  "list20-off0-validated",
  "list100-off0-validated",
  "pg-list20-off0",
  "prism-list20-off0",
];
report.rows = [...ctx.rows].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
report.extras = ctx.extras;
report.targets = evaluateTargets(report.rows, report.extras);
report.machine.loadAverageAtEnd = loadavg();
report.elapsedS = (performance.now() - started) / 1000;

const text = formatReport(report);
process.stdout.write(`\n${text}\n`);
writeFileSync(join(benchDir, `bench-${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(benchDir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(benchDir, "latest.txt"), `${text}\n`);
process.stdout.write(
  `\nwritten: .bench/bench-${stamp}.json (and .bench/latest.json, .bench/latest.txt); target logs in .bench/logs/${stamp}/\n`,
);
rmSync(dataDir, { recursive: true, force: true });
if (failures.length) {
  process.stderr.write(`\n${failures.length} group(s) failed:\n${failures.join("\n")}\n`);
  process.exitCode = 1;
}
