/**
 * `npm run reliability [-- --quick] [-- --only=crash,shutdown,concurrency,fuzz,lock,fairness,outage,heavy-pages,filter-fairness,hostile-target,mock-budgets,mock-sessions,huge-answer,slow-target,connection-flood] [-- --seed=N]`:
 * runs the crash, shutdown, concurrency, fuzz, lock, fairness, outage, heavy-pages and filter-fairness scenarios against freshly started reference servers,
 * hostile-target (the conformance suite against a target that never ends an answer and echoes secrets) and
 * mock-budgets (the stateful mock under made-up keys' state puts), mock-sessions (the stateful mock under 1,000 made-up keys),
 * huge-answer and slow-target (the conformance suite against 8 MiB answers of millions of values, and 9 s answers),
 * connection-flood (2,000 idle connections to the reference server: descriptors back, lists answered),
 * prints what each measured, and exits non-zero on any violation. `--quick` (or RELIABILITY_QUICK=1) is
 * the smaller CI mode: fewer crash cycles and concurrency rounds, same checks.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandLine } from "../../common/cli.js";
import { buildServerIfStale } from "../build/build-server.js";
import { repoRoot, startReference } from "../harness/reference.js";
import { concurrencyScenario } from "./concurrency.js";
import { connectionFloodScenario } from "./connection-flood.js";
import { crashScenario } from "./crash.js";
import { fairnessScenario } from "./fairness.js";
import { filterFairnessScenario } from "./filter-fairness.js";
import { fuzzScenario } from "./fuzz.js";
import { heavyPagesScenario } from "./heavy-pages.js";
import { hostileTargetScenario } from "./hostile-target.js";
import { lockScenario } from "./lock.js";
import { mockBudgetsScenario } from "./mock-budgets.js";
import { mockSessionsScenario } from "./mock-sessions.js";
import { outageScenario } from "./outage.js";
import type { ScenarioResult } from "./scenario.js";
import { shutdownScenario } from "./shutdown.js";
import { hugeAnswerScenario, slowTargetScenario } from "./suite-budget.js";

const quickSettings = {
  cycles: 5,
  crashConcurrency: 12,
  rounds: 3,
  fuzzCount: 5_000,
  // 16 categories since the fidelity one (D-281): 300 warm-up cases left the baseline below the allocator's plateau
  fuzzWarmup: 1_500,
  fairnessMs: 5_000,
  filterDeployments: 4_000,
  filterLoadMs: 3_000,
  heavyLoadMs: 4_000,
  hostileTimeoutMs: 10_000,
  floodKeys: 12,
  floodSessions: 10,
};
const fullSettings = {
  cycles: 20,
  crashConcurrency: 16,
  rounds: 10,
  fuzzCount: 6_000,
  fuzzWarmup: 1_500,
  fairnessMs: 15_000,
  filterDeployments: 40_000,
  filterLoadMs: 6_000,
  heavyLoadMs: 10_000,
  hostileTimeoutMs: 60_000,
  floodKeys: 36,
  floodSessions: 20,
};
const usage = `Usage: npm run reliability -- [--quick] [--only=LIST] [--seed=N] [--cycles=N] [--fuzz-count=N]
  --quick          the CI mode (also RELIABILITY_QUICK=1): ${quickSettings.cycles} crash cycles, ${quickSettings.rounds} concurrency rounds
                   (default: ${fullSettings.cycles} and ${fullSettings.rounds}); the same checks
  --only=LIST      comma-separated scenarios of crash, shutdown, concurrency, fuzz, lock, fairness, outage,
                   heavy-pages, filter-fairness, hostile-target, mock-budgets, mock-sessions, huge-answer,
                   slow-target, connection-flood (default: all; --quick leaves out huge-answer and slow-target)
  --seed=N         seed of the crash timing and the fuzz cases (default 20261121)
  --cycles=N       crash cycles (default ${fullSettings.cycles}, quick ${quickSettings.cycles})
  --fuzz-count=N   fuzz requests (default ${fullSettings.fuzzCount}, quick ${quickSettings.fuzzCount})
Exits 1 on any violation; server logs go to .reports/reliability/.`;
const { values } = parseCommandLine(usage, {
  quick: { type: "boolean", default: false },
  only: { type: "string" },
  seed: { type: "string", default: "20261121" },
  cycles: { type: "string" },
  "fuzz-count": { type: "string" },
});
const quick = values.quick || process.env.RELIABILITY_QUICK === "1";
const only = values.only?.split(",");
const seed = Number(values.seed);
const settings = quick ? quickSettings : fullSettings;
const cycles = Number(values.cycles ?? settings.cycles);
const fuzzCount = Number(values["fuzz-count"] ?? settings.fuzzCount);

await buildServerIfStale();
const started = performance.now();
const log = (message: string) =>
  process.stderr.write(`[reliability ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const logDir = join(repoRoot, ".reports", "reliability", stamp);
mkdirSync(logDir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "reliability-"));

const scenarios: [string, () => Promise<ScenarioResult>][] = [
  [
    "crash",
    () =>
      crashScenario({
        cycles,
        concurrency: settings.crashConcurrency,
        loadMs: [500, 1500],
        seed,
        dataDir,
        logDir,
        log,
      }),
  ],
  ["shutdown", () => shutdownScenario({ requests: 200, dataDir, logDir, log })],
  ["concurrency", () => concurrencyScenario({ rounds: settings.rounds, parallel: 50, dataDir, logDir, log })],
  [
    "fuzz",
    async () => {
      const server = await startReference({ name: "fuzz", logDir, sqlitePath: join(dataDir, "fuzz.sqlite") });
      try {
        return await fuzzScenario(server, {
          seed,
          count: fuzzCount,
          warmupCount: settings.fuzzWarmup,
          concurrency: 8,
          rssTolerance: { fraction: 0.25, floorMiB: 32 },
          log,
        });
      } finally {
        await server.stop();
      }
    },
  ],
  ["lock", () => lockScenario({ holdMs: 6000, dataDir, logDir, log })],
  ["fairness", () => fairnessScenario({ deployments: 5700, loadMs: settings.fairnessMs, dataDir, logDir, log })],
  ["outage", () => outageScenario({ clients: 8, downMs: 2_000, logDir, log })],
  ["heavy-pages", () => heavyPagesScenario({ loadMs: settings.heavyLoadMs, dataDir, logDir, log })],
  [
    "filter-fairness",
    () =>
      filterFairnessScenario({
        deployments: settings.filterDeployments,
        loadMs: settings.filterLoadMs,
        dataDir,
        logDir,
        log,
      }),
  ],
  ["hostile-target", () => hostileTargetScenario({ timeoutMs: settings.hostileTimeoutMs, log })],
  [
    "mock-budgets",
    () => mockBudgetsScenario({ keys: settings.floodKeys, sessionsPerKey: settings.floodSessions, log }),
  ],
  ["mock-sessions", () => mockSessionsScenario({ keys: 1000, log })],
  ["huge-answer", () => hugeAnswerScenario({ log })],
  ["slow-target", () => slowTargetScenario({ log })],
  ["connection-flood", () => connectionFloodScenario({ connections: 2_000, logDir, log })],
];

/**
 * Scenarios the quick mode leaves out unless named: each takes minutes by design (an 8 MiB answer of millions of
 * values, answers of 9 s), and conformance/cli/hostile-target.test.ts runs the same stops at a smaller scale.
 */
const fullOnly = new Set(["huge-answer", "slow-target"]);

const results: ScenarioResult[] = [];
for (const [name, run] of scenarios) {
  if (only ? !only.includes(name) : quick && fullOnly.has(name)) continue;
  log(`${name}: starting`);
  try {
    results.push(await run());
  } catch (error) {
    results.push({ name, failures: [`scenario error: ${(error as Error).stack ?? String(error)}`], summary: [] });
  }
  const result = results.at(-1)!;
  log(`${name}: ${result.failures.length ? `${result.failures.length} violation(s)` : "passed"}`);
}

const lines: string[] = [
  `npm run reliability${quick ? " -- --quick" : ""} (seed ${seed}) — ${((performance.now() - started) / 1000).toFixed(0)} s; server logs in ${logDir.replace(`${repoRoot}/`, "")}`,
];
for (const result of results) {
  lines.push("", `${result.failures.length ? "FAIL" : result.skipped ? "SKIP" : "PASS"} ${result.name}`);
  if (result.skipped) lines.push(`  skipped: ${result.skipped}`);
  for (const line of result.summary) lines.push(`  ${line}`);
  for (const missed of result.missedTargets ?? [])
    lines.push(`  ~ target missed (a figure, not a failure: D-452): ${missed}`);
  for (const failure of result.failures) lines.push(`  ✗ ${failure}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(dataDir, { recursive: true, force: true });
if (results.some((result) => result.failures.length > 0)) process.exitCode = 1;
