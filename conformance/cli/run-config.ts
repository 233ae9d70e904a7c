/** Configuration of a conformance run: flags > environment > config file, then validated. */
import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { httpToken } from "../../common/http-token.js";
import { defaultMaxResponseBytes, defaultMaxResponseValues } from "../target/bounded-read.js";
import { type OperationPaths, parseOperationPaths } from "../target/operation-paths.js";
import { redactHeaders } from "../target/redact.js";
import { didYouMean } from "./closest.js";

export type Hosting = "cloud" | "self_hosted";

/** The validated configuration a run uses. */
export interface ConformanceConfig {
  baseUrl: string;
  apiKey: string;
  /** How the key is sent: `X-Api-Key` (default) or `Authorization: Bearer` (D-231). */
  authScheme: "x-api-key" | "bearer";
  tenantId?: string;
  /** A second tenant the same key reaches (per-tenant data, D-14/D-15). */
  otherTenantId?: string;
  otherApiKey?: string;
  hosting: Hosting;
  integrationId?: string;
  managedIntegrationId?: string;
  /** A tag ref (refs/tags/<name>) a repository of the integration holds: DEP-CREATE-026's control is then a verdict (D-50, D-51). */
  codehostTag?: string;
  /** must: MUST checks only; should: both levels (reported apart). */
  level: "must" | "should";
  only: string[];
  skip: string[];
  reportDir?: string;
  readOnly: boolean;
  /** Send every text of the JSONTestSuite corpus (D-486) and of the Big List of Naughty Strings (D-495), not a sample. */
  allJsonCases: boolean;
  /** The target keeps no state (a mock): checks that need state are skipped. */
  stateless: boolean;
  /** fast-check seed; printed so a run can be reproduced. */
  seed?: number;
  /** Run the areas, and the checks of each area, in an order drawn from the seed (D-222). */
  shuffle: boolean;
  /** Property runs per fuzzed operation. */
  fuzzRuns: number;
  /** Generated sequences per stateful check (create and list commands judged by the model). */
  stateRuns: number;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** How long a deployment's status may keep moving (the target's provisioning delay): status checks wait at most this long for it to hold still (D-181). */
  settleMs: number;
  /** How far a timestamp may lie outside the wall-clock window of the request that made it (ms, LAW-007, D-372). */
  clockToleranceMs: number;
  /** Print every check line (default) or only the problems and the summary. */
  quiet: boolean;
  /** Print each failed check's own details (request, answer, curl) besides the problems (D-243). */
  verbose: boolean;
  /** Extra headers sent on every request (`-H 'Name: value'`); a check's own headers win. */
  headers: Record<string, string>;
  /** An answer slower than this (ms) fails the check that sent it (D-87). */
  maxResponseTimeMs?: number;
  /** The most bytes of one answer's body the suite reads; a longer answer fails the check that got it (D-391). */
  maxResponseBytes: number;
  /** The most JSON values of one answer's body the suite parses; a larger answer fails the check that got it (D-460). */
  maxResponseValues: number;
  /** How long the whole run may take (ms); past it the run stops, exit 2 (D-462). */
  runDeadlineMs: number;
  /** The least pace of an answer's body once its headers came (bytes a second, after a first second; 0: none, D-461). */
  minTransferRate: number;
  /** Slow answers (over half of --timeout-ms) or timeouts in a row that stop the run, exit 2 (0: never, D-463). */
  maxSlowAnswers: number;
  /** Write every exchange of the run as HAR 1.2 to this file. */
  har?: string;
  /** A documented status no check reached makes the exit code 1. */
  failOnUnexercised: boolean;
  /** Warn when more than this share (percent) of the selected checks was skipped. */
  warnSkippedPercent: number;
  /** How long one check may wait for 429 answers and 503 answers with Retry-After before it has no verdict (ms, D-380). */
  retryBudgetMs: number;
  /** How long the whole run may wait for them (ms, D-380). */
  retryTotalMs: number;
  /** Send at most this many requests a second (D-380). */
  maxRps?: number;
  /** Where the operations the interface spec shows no path for live on the target (D-382); the contract's path otherwise. */
  operationPaths: OperationPaths;
  /** The fetch every request goes through (a program's in-process target, D-360); the global one otherwise. No flag sets it. */
  fetch?: typeof fetch;
}

/** The configuration handed to the checks: the validated one plus the run identity. */
export interface RunConfig extends ConformanceConfig {
  runId: string;
  seed: number;
  /** Keep every exchange in the verdicts (for --har and replay); results.json does not carry them. */
  recordExchanges?: boolean;
}

/** A bad configuration: the CLI prints the message on one line and exits 2. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Every option: its flag, env variable, config-file key, and kind. */
const options = [
  { key: "baseUrl", flag: "base-url", kind: "string" },
  { key: "apiKey", flag: "api-key", kind: "string" },
  { key: "authScheme", flag: "auth-scheme", kind: "string" },
  { key: "tenantId", flag: "tenant-id", kind: "string" },
  { key: "otherTenantId", flag: "other-tenant-id", kind: "string" },
  { key: "otherApiKey", flag: "other-api-key", kind: "string" },
  { key: "hosting", flag: "hosting", kind: "string" },
  { key: "integrationId", flag: "integration-id", kind: "string" },
  { key: "managedIntegrationId", flag: "managed-integration-id", kind: "string" },
  { key: "codehostTag", flag: "codehost-tag", kind: "string" },
  { key: "level", flag: "level", kind: "string" },
  { key: "only", flag: "only", kind: "list" },
  { key: "skip", flag: "skip", kind: "list" },
  { key: "reportDir", flag: "report-dir", kind: "string" },
  { key: "readOnly", flag: "read-only", kind: "boolean" },
  { key: "allJsonCases", flag: "all-json-cases", kind: "boolean" },
  { key: "stateless", flag: "stateless", kind: "boolean" },
  { key: "seed", flag: "seed", kind: "string" },
  { key: "shuffle", flag: "shuffle", kind: "boolean" },
  { key: "fuzzRuns", flag: "fuzz-runs", kind: "string" },
  { key: "stateRuns", flag: "state-runs", kind: "string" },
  { key: "timeoutMs", flag: "timeout-ms", kind: "string" },
  { key: "settleMs", flag: "settle-ms", kind: "string" },
  { key: "clockToleranceMs", flag: "clock-tolerance-ms", kind: "string" },
  { key: "quiet", flag: "quiet", kind: "boolean" },
  { key: "verbose", flag: "verbose", kind: "boolean" },
  { key: "headers", flag: "header", kind: "repeat" },
  { key: "maxResponseTimeMs", flag: "max-response-time", kind: "string" },
  { key: "maxResponseBytes", flag: "max-response-bytes", kind: "string" },
  { key: "maxResponseValues", flag: "max-response-values", kind: "string" },
  { key: "runDeadline", flag: "run-deadline", kind: "string" },
  { key: "minTransferRate", flag: "min-transfer-rate", kind: "string" },
  { key: "maxSlowAnswers", flag: "max-slow-answers", kind: "string" },
  { key: "har", flag: "har", kind: "string" },
  { key: "failOnUnexercised", flag: "fail-on-unexercised", kind: "boolean" },
  { key: "warnSkippedPercent", flag: "warn-skipped-percent", kind: "string" },
  { key: "retryBudget", flag: "retry-budget", kind: "string" },
  { key: "retryTotal", flag: "retry-total", kind: "string" },
  { key: "maxRps", flag: "max-rps", kind: "string" },
  { key: "operationPaths", flag: "operation-path", kind: "repeat" },
] as const;

type OptionKey = (typeof options)[number]["key"];
type RawConfig = Partial<Record<OptionKey, string | boolean | string[]>>;

/** The environment variable of a flag: `--base-url` → `CONFORMANCE_BASE_URL`. */
export function envName(flag: string): string {
  return `CONFORMANCE_${flag.toUpperCase().replace(/-/g, "_")}`;
}

/** Usage text printed by --help. */
export function usage(): string {
  return [
    "Usage: deployment-conformance --base-url URL --api-key KEY [options]",
    "",
    "  --base-url URL               target service (required)",
    "  --api-key KEY                API key sent as X-Api-Key (required)",
    "  --auth-scheme x-api-key|bearer  send the key as X-Api-Key (default) or Authorization: Bearer KEY",
    "  --tenant-id UUID             sent as X-Tenant-Id",
    "  --other-tenant-id UUID       a second tenant the same key reaches (per-tenant data checks)",
    "  --other-api-key KEY          a key of another organization (isolation checks)",
    "  --hosting cloud|self_hosted  which sources must be accepted (default cloud)",
    "  --integration-id UUID        a code-host integration of the tenant (operation 3, rule 4)",
    "  --managed-integration-id UUID  a managed integration (operation 4)",
    "  --codehost-tag REF           a tag ref (refs/tags/v1.0.0) a repository of --integration-id holds (DEP-CREATE-026)",
    "  --level must|should          must: MUST checks only; should (default): both, reported apart",
    "  --only IDS_OR_TAGS           comma-separated ids, id prefixes (DEP-LIST) or tags",
    "  --skip IDS_OR_TAGS           same syntax; these are not run",
    "  --report-dir DIR             write junit.xml, results.json, report.html",
    "  --read-only                  create nothing; checks that write are skipped",
    "  --all-json-cases             send every text of the JSONTestSuite corpus (about 290) and of the Big List of",
    "                               Naughty Strings (about 480), and every wrong-type case of FUZZ-009, not a sample",
    "                               from the seed",
    "  --stateless                  the target keeps no state (a mock); stateful checks are skipped",
    "  --seed N                     fast-check seed (printed on every run)",
    "  --shuffle                    run areas and checks in an order drawn from the seed (the same seed, the same order)",
    "  --fuzz-runs N                property runs per fuzzed operation (default 100)",
    "  --state-runs N               generated create/list sequences per stateful check (default 25)",
    "  --timeout-ms N               per-request timeout (default 10000)",
    "  --settle-ms N                the target's provisioning delay: status checks wait up to N ms (default 20000)",
    "  --clock-tolerance-ms N       how far a timestamp may lie outside its request's wall-clock window (default 2000, LAW-007)",
    "  --quiet                      print only the problems (failures grouped by cause) and the summary",
    "  --verbose                    also print each failed check's request, answer and curl command",
    "  -H, --header 'Name: value'   an extra header on every request (repeatable; env: one per line)",
    "  --max-response-time MS       an answer slower than MS fails the check that sent it",
    "  --max-response-bytes N       read at most N bytes of an answer's body; a longer one fails its check (default 8388608)",
    "  --max-response-values N      parse at most N JSON values of an answer's body; a larger one fails its check",
    "                               (default 500000)",
    "  --run-deadline S             stop the run after S s, exit 2, reports of what ran (default 1800)",
    "  --min-transfer-rate N        an answer's body must come at N bytes a second or more after its first second;",
    "                               a slower one is abandoned as no answer (default 4096; 0: no least pace)",
    "  --max-slow-answers N         stop the run, exit 2, after N answers in a row each slower than half of",
    "                               --timeout-ms or never come (default 10; 0: never)",
    "  --har FILE                   write every exchange as HAR 1.2 (secrets redacted)",
    "  --fail-on-unexercised        exit 1 when a documented status of an operation was never reached",
    "  --warn-skipped-percent N     warn when more than N% of the selected checks were skipped (default 50)",
    "  --retry-budget S             a 429 (its Retry-After, else a back-off) or a 503 with Retry-After is waited for and",
    "                               sent again, up to S s per check (default 30);",
    "                               past it the check has no verdict",
    "  --retry-total S              the same wait for the whole run, at most S s (default 600)",
    "  --max-rps N                  send at most N requests a second",
    "  --operation-path 'OP=METHOD /path'  where an operation the interface spec shows no path for lives (repeatable;",
    "                               listManagedCodehostRepositories, default GET /v1/integrations/forge/codehost/{integration_id}/repos)",
    "  --config FILE                JSON file with the same keys (camelCase or flag names)",
    "  --list                       print every check (id, level, needs, statement, spec pointer) and exit",
    "",
    "Replay one check with the same generated data: deployment-conformance replay CHECK-ID --seed N [flags]",
    "Check every input before a run (what each enables, what is skipped without it): deployment-conformance doctor [flags]",
    "",
    "Every flag is also an environment variable: --base-url → CONFORMANCE_BASE_URL, ...",
    "Precedence: flags > environment > config file.",
    "Exit: 0 every selected MUST check passed; 1 a MUST check failed (or, with --fail-on-unexercised, a status was never reached);",
    "2 bad configuration, unreachable target, or a run stopped by --run-deadline or --max-slow-answers.",
  ].join("\n");
}

/** Usage text of `doctor --help`. */
export function doctorUsage(): string {
  return [
    "Usage: deployment-conformance doctor --base-url URL --api-key KEY [flags]",
    "",
    "Checks every input a run would use against the target and prints, per input, whether it is right, what it",
    "enables and what a run skips without it; says how much room the target has left where it shows it.",
    "Takes the same flags as a run (deployment-conformance --help). Sends reads, and one deployment create to",
    "probe --hosting (none with --read-only).",
    "Exit: 0 every input given is right; 2 an input is wrong or the target cannot be used.",
  ].join("\n");
}

/** Usage text of `replay --help`. */
export function replayUsage(): string {
  return [
    "Usage: deployment-conformance replay CHECK-ID --seed N --base-url URL --api-key KEY [flags]",
    "",
    "Runs one check again with the same generated data and prints every exchange it made. A failed run prints",
    "the replay command of each failure with every flag the check used; the keys stay in the environment",
    "(CONFORMANCE_API_KEY, CONFORMANCE_OTHER_API_KEY). Takes the same flags as a run (deployment-conformance --help).",
    "Exit: 0 the check passed or was skipped; 1 it failed; 2 bad configuration or unreachable target.",
  ].join("\n");
}

/** The flags as node:util parseArgs takes them: every option, plus `--config`, `--help` (`-h`) and `--list`. */
const flagOptions: NonNullable<ParseArgsConfig["options"]> = {
  ...Object.fromEntries(
    options.map((option) => [
      option.flag,
      {
        type: option.kind === "boolean" ? "boolean" : "string",
        ...(option.flag === "header" ? { short: "H", multiple: true } : {}),
        ...(option.flag === "operation-path" ? { multiple: true } : {}),
      } as const,
    ]),
  ),
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
  list: { type: "boolean" },
};

/**
 * Parses command-line arguments into raw values; `--config`, `--help` and `--list` are returned apart.
 * parseArgs runs with `strict: false` and its tokens are judged here: a bad command line is a
 * ConfigError with a one-line reason naming the flag (exit 2), and a boolean flag takes an explicit
 * value (`--read-only=false`) as its environment variable does.
 */
function parseFlags(argv: string[]): { raw: RawConfig; configFile?: string; help: boolean; list: boolean } {
  const { tokens } = parseArgs({
    args: argv,
    options: flagOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const raw: RawConfig = {};
  let configFile: string | undefined;
  let help = false;
  let list = false;
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") throw new ConfigError(`unexpected argument '${token.value}'`);
    if (token.name === "help") help = true;
    else if (token.name === "list") list = true;
    else if (token.name === "config") configFile = stringValue(token);
    else {
      const option = options.find((candidate) => candidate.flag === token.name);
      if (!option)
        throw new ConfigError(
          `unknown flag ${token.rawName}${didYouMean(token.rawName, knownFlags())}: see --help for every flag`,
        );
      if (option.kind === "boolean")
        raw[option.key] = token.value === undefined ? true : parseBoolean(token.value, token.rawName);
      else if (option.kind === "repeat")
        raw[option.key] = [...((raw[option.key] as string[] | undefined) ?? []), stringValue(token)];
      else raw[option.key] = option.kind === "list" ? splitList(stringValue(token)) : stringValue(token);
    }
  }
  return { raw, configFile, help, list };
}

/** The value of a string flag; parseArgs without strict takes the next flag as the value (`--base-url --api-key`), which is a missing value. */
function stringValue(token: {
  rawName: string;
  value?: string | undefined;
  inlineValue?: boolean | undefined;
}): string {
  if (token.value === undefined || (!token.inlineValue && token.value.startsWith("--")))
    throw new ConfigError(`${token.rawName} needs a value`);
  return token.value;
}

/** Every flag the command line takes, as typed (`--base-url`). */
function knownFlags(): string[] {
  return Object.keys(flagOptions).map((name) => `--${name}`);
}

/** Reads the CONFORMANCE_* variables. */
function fromEnv(env: Record<string, string | undefined>): { raw: RawConfig; configFile?: string } {
  const raw: RawConfig = {};
  for (const option of options) {
    const value = env[envName(option.flag)];
    if (value === undefined || value === "") continue;
    raw[option.key] =
      option.kind === "boolean"
        ? parseBoolean(value, envName(option.flag))
        : option.kind === "list"
          ? splitList(value)
          : option.kind === "repeat"
            ? value.split(/\r?\n/).filter((line) => line.trim() !== "")
            : value;
  }
  return { raw, configFile: env.CONFORMANCE_CONFIG || undefined };
}

/** Reads a JSON config file; keys are the camelCase names or the flag names. */
function fromFile(path: string, read: (p: string) => string = (p) => readFileSync(p, "utf8")): RawConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(read(path));
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  return fromObject(parsed, `config file ${path}`);
}

/** Raw values of an object with the config file's keys (camelCase names or flag names); `where` names it in errors. */
function fromObject(parsed: unknown, where: string): RawConfig {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ConfigError(`${where} must hold a JSON object`);
  const raw: RawConfig = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (v === undefined) continue;
    const option = options.find((o) => o.key === k || o.flag === k);
    if (!option) throw new ConfigError(`unknown key '${k}' in ${where}`);
    if (option.kind === "boolean") raw[option.key] = typeof v === "boolean" ? v : parseBoolean(String(v), k);
    else if (option.kind === "list") raw[option.key] = Array.isArray(v) ? v.map(String) : splitList(String(v));
    else if (option.kind === "repeat")
      raw[option.key] = Array.isArray(v)
        ? v.map(String)
        : typeof v === "object" && v !== null
          ? Object.entries(v).map(([name, value]) => `${name}: ${String(value)}`)
          : [String(v)];
    else raw[option.key] = String(v);
  }
  return raw;
}

/**
 * The options of a run as a program gives them (the config file's keys, e.g. `{ baseUrl, apiKey, only: ["AUTH"] }`),
 * plus `fetch`: a standard fetch every request goes through instead of the global one, so a program can judge a
 * target it holds in-process (D-360).
 */
export type ConformanceOptions = Partial<
  Record<OptionKey, string | number | boolean | string[] | Record<string, string>>
> & { fetch?: typeof fetch };

/** Validates options given as an object (the vitest adapter, a program), as a config file's are; throws ConfigError. */
export function configFromObject(input: ConformanceOptions): ConformanceConfig {
  const { fetch: send, ...rest } = input;
  if (send !== undefined && typeof send !== "function")
    throw new ConfigError("the conformance option fetch must be a function");
  const config = validate(fromObject(rest, "the conformance options"));
  return send ? { ...config, fetch: send } : config;
}

/** Merges the three sources (flags > env > file) and validates the result. */
export function resolveConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  read?: (p: string) => string,
): { config: ConformanceConfig; help: boolean; list: boolean } {
  const args = parseFlags(argv);
  const environment = fromEnv(env);
  const file = args.configFile ?? environment.configFile;
  const fileRaw = file ? fromFile(file, read) : {};
  const raw: RawConfig = { ...fileRaw, ...environment.raw, ...args.raw };
  if (args.help || args.list)
    return { config: undefined as unknown as ConformanceConfig, help: args.help, list: args.list };
  return { config: validate(raw), help: false, list: false };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks every value and applies defaults; throws ConfigError with a one-line reason. */
export function validate(raw: RawConfig): ConformanceConfig {
  const str = (k: OptionKey) => (typeof raw[k] === "string" ? (raw[k] as string) : undefined);
  const baseUrl = str("baseUrl");
  if (!baseUrl) throw new ConfigError("--base-url is required (or CONFORMANCE_BASE_URL)");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`--base-url '${baseUrl}' is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`--base-url must be http or https, got ${url.protocol}`);
  const apiKey = str("apiKey");
  if (!apiKey) throw new ConfigError("--api-key is required (or CONFORMANCE_API_KEY)");
  const authScheme = (str("authScheme") ?? "x-api-key").toLowerCase();
  if (authScheme !== "x-api-key" && authScheme !== "bearer")
    throw new ConfigError(`--auth-scheme must be x-api-key or bearer, got '${str("authScheme")}'`);
  const hosting = str("hosting") ?? "cloud";
  if (hosting !== "cloud" && hosting !== "self_hosted")
    throw new ConfigError(`--hosting must be cloud or self_hosted, got '${hosting}'`);
  const level = (str("level") ?? "should").toLowerCase();
  if (level !== "must" && level !== "should")
    throw new ConfigError(`--level must be must or should, got '${str("level")}'`);
  for (const k of ["tenantId", "otherTenantId", "integrationId", "managedIntegrationId"] as const) {
    const v = str(k);
    if (v !== undefined && !uuidPattern.test(v)) throw new ConfigError(`--${flagOf(k)} must be a UUID, got '${v}'`);
  }
  const otherApiKey = str("otherApiKey");
  if (otherApiKey !== undefined && otherApiKey === apiKey)
    throw new ConfigError("--other-api-key must differ from --api-key");
  const otherTenantId = str("otherTenantId");
  if (otherTenantId !== undefined && otherTenantId.toLowerCase() === str("tenantId")?.toLowerCase())
    throw new ConfigError("--other-tenant-id must differ from --tenant-id");
  const seed = optionalInt(str("seed"), "seed", -(2 ** 31), 2 ** 31 - 1);
  const fuzzRuns = optionalInt(str("fuzzRuns"), "fuzz-runs", 1, 10_000) ?? 100;
  const stateRuns = optionalInt(str("stateRuns"), "state-runs", 1, 10_000) ?? 25;
  const timeoutMs = optionalInt(str("timeoutMs"), "timeout-ms", 100, 600_000) ?? 10_000;
  const settleMs = optionalInt(str("settleMs"), "settle-ms", 0, 600_000) ?? 20_000;
  const clockToleranceMs = optionalInt(str("clockToleranceMs"), "clock-tolerance-ms", 0, 86_400_000) ?? 2000;
  const maxResponseTimeMs = optionalInt(str("maxResponseTimeMs"), "max-response-time", 1, 600_000);
  const maxResponseBytes =
    optionalInt(str("maxResponseBytes"), "max-response-bytes", 1024, 1024 * 1024 * 1024) ?? defaultMaxResponseBytes;
  const maxResponseValues =
    optionalInt(str("maxResponseValues"), "max-response-values", 1000, 100_000_000) ?? defaultMaxResponseValues;
  const runDeadlineMs = (optionalInt(str("runDeadline"), "run-deadline", 1, 604_800) ?? 1800) * 1000;
  const minTransferRate = optionalInt(str("minTransferRate"), "min-transfer-rate", 0, 1024 * 1024 * 1024) ?? 4096;
  const maxSlowAnswers = optionalInt(str("maxSlowAnswers"), "max-slow-answers", 0, 1_000_000) ?? 10;
  const warnSkippedPercent = optionalInt(str("warnSkippedPercent"), "warn-skipped-percent", 0, 100) ?? 50;
  const retryBudgetMs = (optionalInt(str("retryBudget"), "retry-budget", 0, 3600) ?? 30) * 1000;
  const retryTotalMs = (optionalInt(str("retryTotal"), "retry-total", 0, 86_400) ?? 600) * 1000;
  const maxRps = optionalInt(str("maxRps"), "max-rps", 1, 100_000);
  const operationPaths = parseOperationPaths((raw.operationPaths as string[] | undefined) ?? []);
  if (typeof operationPaths === "string") throw new ConfigError(operationPaths);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    apiKey,
    authScheme,
    tenantId: str("tenantId"),
    otherTenantId,
    otherApiKey,
    hosting,
    integrationId: str("integrationId"),
    managedIntegrationId: str("managedIntegrationId"),
    codehostTag: str("codehostTag"),
    level,
    only: (raw.only as string[] | undefined) ?? [],
    skip: (raw.skip as string[] | undefined) ?? [],
    reportDir: str("reportDir"),
    readOnly: raw.readOnly === true,
    allJsonCases: raw.allJsonCases === true,
    stateless: raw.stateless === true,
    shuffle: raw.shuffle === true,
    seed,
    fuzzRuns,
    stateRuns,
    timeoutMs,
    settleMs,
    clockToleranceMs,
    quiet: raw.quiet === true,
    verbose: raw.verbose === true,
    headers: parseHeaders((raw.headers as string[] | undefined) ?? []),
    maxResponseTimeMs,
    maxResponseBytes,
    maxResponseValues,
    runDeadlineMs,
    minTransferRate,
    maxSlowAnswers,
    har: str("har"),
    failOnUnexercised: raw.failOnUnexercised === true,
    warnSkippedPercent,
    retryBudgetMs,
    retryTotalMs,
    maxRps,
    operationPaths,
  };
}

/** `Name: value` lines into a header record; a later line of the same name wins. */
function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim() : "";
    if (!httpToken.test(name)) throw new ConfigError(`--header must be 'Name: value', got '${line}'`);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The configuration without secrets, for reports. */
export function publicConfig(config: ConformanceConfig | RunConfig): Record<string, unknown> {
  const { apiKey, otherApiKey, headers, fetch: _fetch, ...rest } = config;
  return {
    ...rest,
    headers: redactHeaders(headers ?? {}, Object.keys(headers ?? {})),
    apiKey: apiKey ? "[REDACTED]" : undefined,
    otherApiKey: otherApiKey ? "[REDACTED]" : undefined,
  };
}

function flagOf(key: OptionKey): string {
  return options.find((o) => o.key === key)!.flag;
}

function optionalInt(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(`--${flag} must be an integer, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(`--${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function parseBoolean(value: string, name: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false, got '${value}'`);
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
