/** `replay <check-id> --seed N [flags]`: one check again with the same generated data, and the command that does it for a failure. */
import { fileURLToPath } from "node:url";
import { headerArgument, shellQuote } from "../report/curl.js";
import { defaultMaxResponseBytes } from "../target/bounded-read.js";
import { operationPathLines } from "../target/operation-paths.js";
import type { RunConfig } from "./run-config.js";
import { ConfigError } from "./run-config.js";

/** The check id and the flags of a replay command line (`argv` without the `replay` word). */
export function parseReplayArgs(argv: string[]): { checkId: string; flags: string[] } {
  const [checkId, ...flags] = argv;
  if (checkId === undefined || checkId.startsWith("-"))
    throw new ConfigError("replay needs a check id: replay <check-id> --seed N [flags]");
  if (!/^[A-Z]+(-[A-Z]+)*-\d+$/i.test(checkId))
    throw new ConfigError(`replay takes one check id (e.g. DEP-LIST-004), got '${checkId}'`);
  if (!flags.some((flag) => flag === "--seed" || flag.startsWith("--seed=")))
    throw new ConfigError("replay needs --seed N (the seed the run printed) to generate the same data");
  return { checkId: checkId.toUpperCase(), flags };
}

/**
 * How the replay is started where the run was: an installed package (the suite's file lies under a
 * node_modules folder) through its bin, a clone of the repository through its TypeScript entry. Both through npx,
 * which, unlike `npm run`, does not echo the command line it runs (where a shell would have put a key).
 */
export function replayLauncher(moduleFile: string = fileURLToPath(import.meta.url)): string {
  return /[\\/]node_modules[\\/]/.test(moduleFile)
    ? "npx deployment-conformance replay"
    : "npx tsx conformance/bin.ts replay";
}

/**
 * The command that replays one check of a run: its configuration as flags, never a key: the command reads the keys
 * from CONFORMANCE_API_KEY and CONFORMANCE_OTHER_API_KEY, the variables the curl commands use (credential headers
 * stay redacted).
 */
export function replayCommand(config: RunConfig, checkId: string, launcher: string = replayLauncher()): string {
  const parts = [launcher, checkId, "--seed", String(config.seed)];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) parts.push(flag, shellQuote(value));
  };
  add("--base-url", config.baseUrl);
  add("--tenant-id", config.tenantId);
  add("--other-tenant-id", config.otherTenantId);
  if (config.hosting !== "cloud") add("--hosting", config.hosting);
  add("--integration-id", config.integrationId);
  add("--managed-integration-id", config.managedIntegrationId);
  add("--codehost-tag", config.codehostTag);
  if (config.readOnly) parts.push("--read-only");
  if (config.stateless) parts.push("--stateless");
  if (config.fuzzRuns !== 100) add("--fuzz-runs", String(config.fuzzRuns));
  if (config.stateRuns !== 25) add("--state-runs", String(config.stateRuns));
  if (config.timeoutMs !== 10_000) add("--timeout-ms", String(config.timeoutMs));
  if (config.settleMs !== 20_000) add("--settle-ms", String(config.settleMs));
  if (config.clockToleranceMs !== 2000) add("--clock-tolerance-ms", String(config.clockToleranceMs));
  if (config.maxResponseTimeMs !== undefined) add("--max-response-time", String(config.maxResponseTimeMs));
  if (config.maxResponseBytes !== defaultMaxResponseBytes) add("--max-response-bytes", String(config.maxResponseBytes));
  // every -H value is a secret (D-392): a shell variable the user sets, as the keys are
  for (const name of Object.keys(config.headers)) parts.push("-H", headerArgument(name));
  for (const line of operationPathLines(config)) add("--operation-path", line);
  if (config.retryBudgetMs !== 30_000) add("--retry-budget", String(config.retryBudgetMs / 1000));
  if (config.maxRps !== undefined) add("--max-rps", String(config.maxRps));
  return parts.join(" ");
}
