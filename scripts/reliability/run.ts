/**
 * `npm run reliability [-- --quick] [-- --only=crash,shutdown,concurrency,fuzz] [-- --seed=N]` (issue 6):
 * runs the crash, shutdown, concurrency and fuzz scenarios against freshly started reference servers,
 * prints what each measured, and exits non-zero on any violation. `--quick` (or RELIABILITY_QUICK=1) is
 * the smaller CI mode: fewer crash cycles and concurrency rounds, same checks.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, startReference } from "../bench/targets.js";
import { concurrencyScenario } from "./concurrency.js";
import { crashScenario } from "./crash.js";
import { fuzzScenario } from "./fuzz.js";
import type { ScenarioResult } from "./scenario.js";
import { shutdownScenario } from "./shutdown.js";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick") || process.env.RELIABILITY_QUICK === "1";
const option = (name: string): string | undefined => argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const only = option("only")?.split(",");
const seed = Number(option("seed") ?? 20261121);
const settings = quick
  ? { cycles: 5, crashConcurrency: 12, rounds: 3, fuzzCount: 5_000, fuzzWarmup: 300 }
  : { cycles: 20, crashConcurrency: 16, rounds: 10, fuzzCount: 6_000, fuzzWarmup: 500 };
const cycles = Number(option("cycles") ?? settings.cycles);
const fuzzCount = Number(option("fuzz-count") ?? settings.fuzzCount);

const started = performance.now();
const log = (message: string) => process.stderr.write(`[reliability ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const logDir = join(repoRoot, ".reports", "reliability", stamp);
mkdirSync(logDir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "reliability-"));

const scenarios: [string, () => Promise<ScenarioResult>][] = [
  ["crash", () => crashScenario({ cycles, concurrency: settings.crashConcurrency, loadMs: [500, 1500], seed, dataDir, logDir, log })],
  ["shutdown", () => shutdownScenario({ requests: 200, dataDir, logDir, log })],
  ["concurrency", () => concurrencyScenario({ rounds: settings.rounds, parallel: 50, dataDir, logDir, log })],
  [
    "fuzz",
    async () => {
      const server = await startReference({ name: "fuzz", logDir, sqlitePath: join(dataDir, "fuzz.sqlite") });
      try {
        return await fuzzScenario(server, { seed, count: fuzzCount, warmupCount: settings.fuzzWarmup, concurrency: 8, rssTolerance: { fraction: 0.25, floorMiB: 32 }, log });
      } finally {
        await server.stop();
      }
    },
  ],
];

const results: ScenarioResult[] = [];
for (const [name, run] of scenarios) {
  if (only && !only.includes(name)) continue;
  log(`${name}: starting`);
  try {
    results.push(await run());
  } catch (error) {
    results.push({ name, failures: [`scenario error: ${(error as Error).stack ?? String(error)}`], summary: [] });
  }
  const result = results.at(-1)!;
  log(`${name}: ${result.failures.length ? `${result.failures.length} violation(s)` : "passed"}`);
}

const lines: string[] = [`npm run reliability${quick ? " -- --quick" : ""} (seed ${seed}) — ${((performance.now() - started) / 1000).toFixed(0)} s; server logs in ${logDir.replace(`${repoRoot}/`, "")}`];
for (const result of results) {
  lines.push("", `${result.failures.length ? "FAIL" : "PASS"} ${result.name}`);
  for (const line of result.summary) lines.push(`  ${line}`);
  for (const failure of result.failures) lines.push(`  ✗ ${failure}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(dataDir, { recursive: true, force: true });
if (results.some((result) => result.failures.length > 0)) process.exitCode = 1;
