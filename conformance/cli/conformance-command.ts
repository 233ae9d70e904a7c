/**
 * The conformance command: `deployment-conformance --base-url URL --api-key KEY [options]`, or
 * `deployment-conformance replay CHECK-ID --seed N [options]` to run one check again, or
 * `deployment-conformance doctor [options]` to check every input first (doctor.ts); ../bin.ts starts it.
 * Validates the configuration, runs the preflight (../target/preflight.ts), runs the suite with its own runner
 * (../runner/runner.ts) and reports.
 * Exit 0: every selected MUST check passed; 1: a MUST check failed (or, with --fail-on-unexercised, a
 * documented status was never reached); 2: bad configuration or unreachable target.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { operationList } from "../../contract/index.js";
import { loadDecisions } from "../coverage/decisions.js";
import { computeCoverage } from "../coverage/matrix.js";
import { weakRunWarnings } from "../coverage/warnings.js";
import { sendableIn } from "../model/body-source-rules.js";
import { newRunId } from "../model/data.js";
import { renderConsole } from "../report/console.js";
import { cutValues, fitConsoleText } from "../report/console-line.js";
import { type CheckExchange, toHar } from "../report/har.js";
import { groupProblems } from "../report/problems.js";
import { renderReplay } from "../report/replay.js";
import { terminalSafe } from "../report/terminal-text.js";
import { writeReports } from "../report/write.js";
import { unmatchedTokens } from "../runner/check-selection.js";
import { createdResources, exitCodeOf, type RunResult, summarize } from "../runner/result.js";
import { runChecks } from "../runner/runner.js";
import { PreflightError, preflight } from "../target/preflight.js";
import { rateLimitTally } from "../target/rate-limit.js";
import { maskDeep, userSecrets } from "../target/redact.js";
import { runStoppedReport } from "../target/run-budget.js";
import { targetFullReport } from "../target/target-full.js";
import { targetGoneReport } from "../target/target-gone.js";
import { doctor } from "./doctor.js";
import { parseReplayArgs, replayCommand } from "./replay-command.js";
import {
  ConfigError,
  type ConformanceConfig,
  publicConfig,
  type RunConfig,
  replayUsage,
  resolveConfig,
  usage,
} from "./run-config.js";

/**
 * Runs the suite against a validated configuration (no printing, no exit): the result, and every
 * exchange with its check when `recordExchanges` is set (--har, replay); results.json never carries them.
 */
export async function runConformance(
  config: ConformanceConfig,
  options: { recordExchanges?: boolean } = {},
): Promise<{ result: RunResult; exchanges: CheckExchange[] }> {
  const runConfig: RunConfig = {
    ...config,
    runId: newRunId(),
    seed: config.seed ?? Math.floor(Math.random() * 2 ** 31),
    recordExchanges: options.recordExchanges === true || config.har !== undefined,
  };
  const started = new Date();
  const { verdicts, errors } = await runChecks(runConfig);
  const finished = new Date();
  if (verdicts.length === 0 && errors.length === 0)
    errors.push("no check ran: the selection (--level/--only/--skip) matches nothing");
  const exchanges: CheckExchange[] = [];
  for (const v of verdicts) {
    for (const exchange of v.exchanges ?? []) exchanges.push({ check: v.id, exchange });
    delete v.exchanges;
    if (v.status === "fail" && v.failure) v.failure.replay = replayCommand(runConfig, v.id);
  }
  const coverage = computeCoverage(verdicts, operationList, loadDecisions(), (operationId, field) =>
    operationId === "createDeployment" ? sendableIn(runConfig.hosting, field) : true,
  );
  // what each check sent is read once, by the coverage: the report names only what no request sent
  for (const v of verdicts) delete v.sentFields;
  const created = createdResources(verdicts);
  const stopped = runStoppedReport({ verdicts, target: config.baseUrl });
  const result: RunResult = {
    runId: runConfig.runId,
    seed: runConfig.seed,
    target: config.baseUrl,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    config: publicConfig(runConfig),
    summary: summarize(verdicts),
    verdicts,
    problems: groupProblems(verdicts),
    created,
    errors,
    // a run stopped by its budget says why first, in every report (D-462, D-463)
    warnings: [
      ...(stopped ?? []),
      ...weakRunWarnings({
        verdicts,
        createdCount: created.length,
        readOnly: config.readOnly,
        warnSkippedPercent: config.warnSkippedPercent,
      }),
    ],
    coverage,
    rateLimits: rateLimitTally(),
    exitCode:
      targetFullReport({ verdicts }) || stopped
        ? 2
        : exitCodeOf(verdicts, errors, config.failOnUnexercised ? coverage.unexercised : []),
  };
  // a secret the user gave, echoed by the target into a failure message, a header or a body, leaves no report (D-392)
  const secrets = userSecrets(config);
  return { result: maskDeep(result, secrets), exchanges: maskDeep(exchanges, secrets) };
}

/** Writes the HAR file of a run. */
function writeHar(file: string, exchanges: CheckExchange[], result: RunResult): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(toHar(exchanges, result), null, 2)}\n`);
}

/** `replay CHECK-ID --seed N [flags]`: that check alone, its verdict and every exchange it made. */
async function replay(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let config: ConformanceConfig;
  let checkId: string;
  if (wantsHelp(argv)) {
    console.log(replayUsage());
    return 0;
  }
  try {
    const parsed = parseReplayArgs(argv);
    checkId = parsed.checkId;
    const { allChecks } = await import("../checks/index.js");
    if (!allChecks.some((c) => c.id === checkId)) throw new ConfigError(`replay: no check has the id ${checkId}`);
    config = { ...resolveConfig(parsed.flags, env).config, only: [checkId], skip: [] };
    await preflight(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError) {
      console.error(`conformance: ${cutValues(terminalSafe(error.message))}`);
      return 2;
    }
    throw error;
  }
  const { result, exchanges } = await runConformance(config, { recordExchanges: true });
  console.log(fitConsoleText(renderReplay(result, exchanges)));
  if (config.har) writeHar(config.har, exchanges, result);
  return result.verdicts.some((v) => v.status === "fail") || result.errors.length > 0 ? 1 : 0;
}

/** Whether a subcommand's arguments ask for its usage (`--help` or `-h` before any `--`). */
function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/** The command: parse, validate, probe, run, print, write reports; returns the exit code. */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  if (argv[0] === "replay") return replay(argv.slice(1), env);
  if (argv[0] === "doctor") return doctor(argv.slice(1), env);
  let config: ConformanceConfig;
  try {
    const resolved = resolveConfig(argv, env);
    if (resolved.help) {
      console.log(usage());
      return 0;
    }
    if (resolved.list) {
      const { allChecks } = await import("../checks/index.js");
      for (const c of allChecks)
        console.log(
          fitConsoleText(
            `${c.id.padEnd(16)} ${c.level.padEnd(6)} ${c.statement}\n${"".padEnd(24)}${c.specRef}${c.needs.length ? ` · needs ${c.needs.join(", ")}` : ""}`,
          ),
        );
      return 0;
    }
    config = resolved.config;
    const unmatched = unmatchedTokens((await import("../checks/index.js")).allChecks, config);
    if (unmatched.length > 0) throw new ConfigError(unmatched.join("\n"));
    await preflight(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError) {
      console.error(`conformance: ${cutValues(terminalSafe(error.message))}`);
      return 2;
    }
    throw error;
  }
  const { result, exchanges } = await runConformance(config);
  const gone = targetGoneReport(result);
  if (gone) {
    console.error(gone.join("\n"));
    if (config.reportDir) writeReports(config.reportDir, result);
    return 2;
  }
  console.log(renderConsole(result, { quiet: config.quiet, verbose: config.verbose }));
  const stopped = runStoppedReport(result);
  if (stopped) console.error(stopped.join("\n"));
  if (config.reportDir) {
    const files = writeReports(config.reportDir, result);
    console.log(`Reports: ${files.join(", ")}`);
  }
  if (config.har) {
    writeHar(config.har, exchanges, result);
    console.log(`HAR: ${config.har} (${exchanges.length} exchanges)`);
  }
  return result.exitCode;
}
