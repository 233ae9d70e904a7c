/**
 * The conformance command: `npm run conformance -- --base-url URL --api-key KEY [options]`.
 * Validates the configuration, probes the target, runs the suite with vitest and reports.
 * Exit 0: every selected MUST check passed; 1: a MUST check failed; 2: bad configuration or unreachable target.
 */
import { fileURLToPath } from "node:url";
import { operation } from "../contract/index.js";
import { ConfigError, type ConformanceConfig, publicConfig, type RunConfig, resolveConfig, usage } from "./config.js";
import { newRunId } from "./data.js";
import { renderConsole } from "./report/console.js";
import { writeReports } from "./report/write.js";
import { VerdictCollector } from "./reporter.js";
import { createdResources, exitCodeOf, type RunResult, summarize } from "./result.js";

/** Raised when the target cannot be reached: exit 2. */
export class UnreachableError extends Error {
  override name = "UnreachableError";
}

/** Checks that something answers HTTP at the base URL (any status will do). */
export async function probe(config: ConformanceConfig): Promise<void> {
  const url = `${config.baseUrl}${operation("listOAuthProviders").path}`;
  try {
    const res = await fetch(url, {
      headers: { "X-Api-Key": config.apiKey, Accept: "application/json" },
      signal: AbortSignal.timeout(Math.min(config.timeoutMs, 5000)),
    });
    await res.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === "TimeoutError"
        ? "no answer within 5 s"
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new UnreachableError(`cannot reach ${config.baseUrl}: ${why}`);
  }
}

/** Runs the suite against a validated configuration and returns the result (no printing, no exit). */
export async function runConformance(config: ConformanceConfig): Promise<RunResult> {
  const runConfig: RunConfig = {
    ...config,
    runId: newRunId(),
    seed: config.seed ?? Math.floor(Math.random() * 2 ** 31),
  };
  const started = new Date();
  const collector = new VerdictCollector();
  const previous = process.env.CONFORMANCE_RUN_CONFIG;
  process.env.CONFORMANCE_RUN_CONFIG = JSON.stringify(runConfig);
  try {
    const { startVitest } = await import("vitest/node");
    const configFile = fileURLToPath(new URL("./vitest.config.ts", import.meta.url));
    const root = fileURLToPath(new URL(".", import.meta.url));
    const vitest = await startVitest("test", [], {
      config: configFile,
      root,
      watch: false,
      run: true,
      reporters: [collector],
    } as never);
    await vitest.close();
  } finally {
    if (previous === undefined) delete process.env.CONFORMANCE_RUN_CONFIG;
    else process.env.CONFORMANCE_RUN_CONFIG = previous;
  }
  const finished = new Date();
  const order = new Map((await import("./checks/index.js")).allChecks.map((c, i) => [c.id, i]));
  const verdicts = [...collector.verdicts].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  if (verdicts.length === 0 && collector.errors.length === 0)
    collector.errors.push("no check ran: the selection (--level/--only/--skip) matches nothing");
  return {
    runId: runConfig.runId,
    seed: runConfig.seed,
    target: config.baseUrl,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    config: publicConfig(runConfig),
    summary: summarize(verdicts),
    verdicts,
    created: createdResources(verdicts),
    errors: collector.errors,
    exitCode: exitCodeOf(verdicts, collector.errors),
  };
}

/** The command: parse, validate, probe, run, print, write reports; returns the exit code. */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let config: ConformanceConfig;
  try {
    const resolved = resolveConfig(argv, env);
    if (resolved.help) {
      console.log(usage());
      return 0;
    }
    if (resolved.list) {
      const { allChecks } = await import("./checks/index.js");
      for (const c of allChecks)
        console.log(
          `${c.id.padEnd(16)} ${c.level.padEnd(6)} ${c.statement}\n${"".padEnd(24)}${c.specRef}${c.needs.length ? ` · needs ${c.needs.join(", ")}` : ""}`,
        );
      return 0;
    }
    config = resolved.config;
    await probe(config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UnreachableError) {
      console.error(`conformance: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const result = await runConformance(config);
  console.log(renderConsole(result, { quiet: config.quiet }));
  if (config.reportDir) {
    const files = writeReports(config.reportDir, result);
    console.log(`Reports: ${files.join(", ")}`);
  }
  return result.exitCode;
}

// run when executed directly (tsx conformance/cli.ts) or imported by bin/conformance.mjs with the marker set
const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly || process.env.CONFORMANCE_CLI_MAIN === "1") {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`conformance: ${(error as Error).stack ?? String(error)}`);
      process.exit(2);
    },
  );
}
