/**
 * `deployment-mock` (`npm run mock`): the Prism mock of the contract on 127.0.0.1. Static answers
 * from the titled examples by default (`Prefer: example=<title>`, `Prefer: code=<status>`),
 * generated data with `--dynamic`; request validation on, invalid requests answered with the
 * contract's 422 problem shape by the front in mock/problem-front.ts (D-71, D-16).
 * `--stateful` serves the sandbox instead: the reference server's rules and storage in memory (D-79).
 * Both take the fault and latency modes of mock/faults.ts (D-80).
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { parseCommandLine } from "../../common/cli.js";
import { listen } from "../../common/listen.js";
import { operation } from "../../contract/index.js";
import { answerClientErrors } from "../../server/errors/client-errors.js";
import { fetchNodeHandler } from "./engine/fetch-http-server.js";
import { createMemorySandbox } from "./engine/memory-sandbox.js";
import { mockCorsPolicy } from "./engine/mock-cors.js";
import { type MockState, parseMockState } from "./engine/mock-state.js";
import { type FaultOptions, parseFailRate, parseLatency, withFaults } from "./faults.js";
import { freePort } from "./free-port.js";
import { writePrismDocument } from "./prism-document.js";
import { startPrism } from "./prism-process.js";
import { startProblemFront } from "./problem-front.js";
import { readStateFile, stateFileWriter } from "./state-file.js";

/** Options of startMock. */
export interface MockOptions {
  /** Port of the mock; 0 picks a free one. Default 4010. */
  port?: number;
  /** Generated data instead of the titled examples. */
  dynamic?: boolean;
  /** Serve Prism's answers unchanged, without the problem front. */
  raw?: boolean;
  /** Called with each line Prism prints (it logs at info level, every request). */
  onPrismLine?: (line: string) => void;
  /** The sandbox (D-79) instead of Prism: creates show in later lists, one state per X-Mock-Session. */
  stateful?: boolean;
  /** Sandbox only: hosting kind (which sources are available, D-46). Default cloud. */
  hosting?: "cloud" | "self_hosted";
  /** Sandbox only: milliseconds until a new deployment turns READY. Default 2000. */
  readyAfterMs?: number;
  /** Fault and latency modes (D-80). */
  faults?: FaultOptions;
  /** Sandbox only: the state every new session starts from (D-320). */
  seed?: MockState;
  /** Sandbox only: a file that keeps the sessions across restarts (D-322). */
  stateFile?: string;
  /** Sandbox only: milliseconds a session may go unused before it expires (30 minutes by default, never with `stateFile` unless given; D-471). */
  sessionIdleMs?: number;
  /** Sandbox only: sessions one client address may hold (200 by default, D-471). */
  maxSessionsPerAddress?: number;
  /** Static mock only: bytes of a request body the front takes (1 MiB by default, as the sandbox, D-472). */
  bodyLimitBytes?: number;
}

/** A running mock. */
export interface RunningMock {
  url: string;
  /** Milliseconds from the start of startMock until the mock answered its first request. */
  startupMs: number;
  close(): Promise<void>;
}

const host = "127.0.0.1";

/** Starts the sandbox behind the fault front and resolves once it listens. */
async function startStatefulMock(options: MockOptions, started: number): Promise<RunningMock> {
  const logger = pino({ level: "silent" });
  const stateFile = options.stateFile;
  const saved = stateFile === undefined ? [] : await readStateFile(stateFile);
  let changed = () => {};
  const sandbox = createMemorySandbox({
    hosting: options.hosting ?? "cloud",
    readyAfterMs: options.readyAfterMs ?? 2000,
    cors: mockCorsPolicy(process.env),
    logger,
    seed: options.seed,
    saved,
    onChange: () => changed(),
    // Sessions kept in a file are a developer's to come back to: they expire only when an idle time is given (D-471).
    sessionIdleMs: options.sessionIdleMs ?? (stateFile === undefined ? undefined : Number.POSITIVE_INFINITY),
    maxSessionsPerAddress: options.maxSessionsPerAddress,
  });
  const writer = stateFile === undefined ? undefined : stateFileWriter(stateFile, sandbox.savedSessions);
  if (writer) changed = writer.changed;
  const server = http.createServer(
    { requireHostHeader: false },
    withFaults(fetchNodeHandler(sandbox.handle, logger), options.faults),
  );
  answerClientErrors(server, logger);
  const listening = await listen(server, options.port ?? 4010, host);
  const url = listening.url;
  const probe = { "X-Api-Key": "startup-probe", "X-Mock-Session": "startup-probe" };
  await fetch(`${url}${operation("listOAuthProviders").path}`, { headers: probe });
  await fetch(`${url}/__mock/sessions/startup-probe`, { method: "DELETE", headers: probe });
  const close = async () => {
    await listening.close();
    // The sessions are written before they are dropped: a restart finds them (D-322).
    changed = () => {};
    await writer?.flush();
    sandbox.reset();
  };
  return { url, startupMs: Math.round(performance.now() - started), close };
}

/** Starts Prism (and the problem front), or the sandbox with `stateful`, and resolves once the mock answers. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const started = performance.now();
  if (options.stateful) return startStatefulMock(options, started);
  const document = await writePrismDocument();
  const port = options.port ?? 4010;
  const prismPort = options.raw ? port || (await freePort()) : await freePort();
  const args = ["mock", document.path, "--host", host, "--port", String(prismPort), "--verboseLevel", "info"];
  if (options.dynamic) args.push("--dynamic");
  let prism: Awaited<ReturnType<typeof startPrism>>;
  try {
    prism = await startPrism({ args, ...(options.onPrismLine ? { onLine: options.onPrismLine } : {}) });
  } catch (error) {
    await document.remove();
    throw error;
  }
  let url = prism.url;
  let closeFront = async () => {};
  const close = async () => {
    await closeFront();
    await prism.stop();
    await document.remove();
  };
  try {
    if (!options.raw) {
      const front = await startProblemFront({
        prismUrl: prism.url,
        host,
        port,
        ...(options.faults ? { faults: options.faults } : {}),
        ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
      });
      url = `http://${host}:${(front.address() as AddressInfo).port}`;
      closeFront = () => new Promise((resolve) => front.close(() => resolve()));
    }
    // The first answer, not the "listening" line, is what a client waits for.
    await fetch(`${url}${operation("listOAuthProviders").path}`, { headers: { "X-Api-Key": "startup-probe" } });
  } catch (error) {
    // e.g. the port is taken: Prism must not stay behind.
    await close();
    throw error;
  }
  return { url, startupMs: Math.round(performance.now() - started), close };
}

const usage = `Usage: deployment-mock [--port N] [--stateful | --dynamic | --raw] [--latency MS] [--fail-rate R] [--verbose]
  --port N            port of the mock on 127.0.0.1 (default 4010; 0 picks a free one)
  --stateful          the sandbox: the reference server's rules and storage in memory; a create shows in
                      later lists; X-Mock-Session: <id> isolates a test's state; POST /__mock/reset
  --hosting KIND      with --stateful: cloud (default) or self_hosted
  --ready-after MS    with --stateful: milliseconds until a new deployment is READY (default 2000)
  --seed FILE         with --stateful: every new session starts from this state (GET /__mock/state writes one)
  --state-file FILE   with --stateful: keep the sessions in FILE across restarts (read at start, written
                      after each change and at shutdown); GET/PUT /__mock/state, POST /__mock/clock
  --session-idle MS   with --stateful: a session unused this long expires (default 1800000, 30 minutes;
                      with --state-file, never unless given)
  --sessions-per-address N
                      with --stateful: sessions one client address may hold; a new one past it is a 429 (default 200)
  --dynamic           generated data instead of the titled examples (Prism)
  --raw               Prism's own answers, without the problem front
  --latency MS        add latency to every answer: 100, or a uniform range such as 50-300
  --fail-rate R       answer this share of requests (0 to 1) with 503 and Retry-After
  --verbose           print every line Prism logs, not only its warnings and errors
Per request: Prefer: code=<status>, example=<title>, delay=<ms>, fault=reset|timeout|503|429`;

/** The state in a `--seed` file, or an error that names the file and what is wrong in it (D-320). */
async function readSeed(path: string): Promise<MockState> {
  try {
    return parseMockState(JSON.parse(await readFile(path, "utf8")) as unknown);
  } catch (error) {
    throw new Error(`--seed ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A flag's whole number of 1 or more, or undefined when the flag is absent. */
function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new Error(`${flag} must be a whole number of 1 or more, got ${value}`);
  return number;
}

/** The command line `deployment-mock [flags]` (`npm run mock -- [flags]`); runs until SIGINT or SIGTERM. */
export async function runMockCommand(args: string[]): Promise<void> {
  const { values } = parseCommandLine(
    usage,
    {
      port: { type: "string", default: "4010" },
      dynamic: { type: "boolean", default: false },
      raw: { type: "boolean", default: false },
      stateful: { type: "boolean", default: false },
      hosting: { type: "string", default: "cloud" },
      "ready-after": { type: "string", default: "2000" },
      seed: { type: "string" },
      "state-file": { type: "string" },
      "session-idle": { type: "string" },
      "sessions-per-address": { type: "string" },
      latency: { type: "string" },
      "fail-rate": { type: "string" },
      verbose: { type: "boolean", default: false },
    },
    { args },
  );
  if (values.stateful && (values.dynamic || values.raw))
    throw new Error("--stateful serves the sandbox; --dynamic and --raw are Prism's");
  const sandboxOnly = ["seed", "state-file", "session-idle", "sessions-per-address"] as const;
  if (!values.stateful && sandboxOnly.some((flag) => values[flag] !== undefined))
    throw new Error(
      "--seed, --state-file, --session-idle and --sessions-per-address are the sandbox's: add --stateful",
    );
  const sessionIdleMs = positiveInteger(values["session-idle"], "--session-idle");
  const maxSessionsPerAddress = positiveInteger(values["sessions-per-address"], "--sessions-per-address");
  if (values.hosting !== "cloud" && values.hosting !== "self_hosted")
    throw new Error(`--hosting must be cloud or self_hosted, got ${values.hosting}`);
  const readyAfterMs = Number(values["ready-after"]);
  if (!Number.isInteger(readyAfterMs) || readyAfterMs < 0)
    throw new Error(`--ready-after must be milliseconds, got ${values["ready-after"]}`);
  const faults: FaultOptions = {
    ...(values.latency !== undefined ? { latency: parseLatency(values.latency) } : {}),
    ...(values["fail-rate"] !== undefined ? { failRate: parseFailRate(values["fail-rate"]) } : {}),
  };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, got ${values.port}`);
  const mock = await startMock({
    port,
    dynamic: values.dynamic,
    raw: values.raw,
    stateful: values.stateful,
    hosting: values.hosting,
    readyAfterMs,
    faults,
    ...(values.seed === undefined ? {} : { seed: await readSeed(values.seed) }),
    ...(values["state-file"] === undefined ? {} : { stateFile: values["state-file"] }),
    ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
    ...(maxSessionsPerAddress === undefined ? {} : { maxSessionsPerAddress }),
    // Prism logs every request at info level; without --verbose only its warnings and errors show.
    onPrismLine: (line) => {
      if (values.verbose || /[✖⚠]|\b(?:error|warning|fatal)\b/.test(line)) console.log(line);
    },
  });
  console.log(
    JSON.stringify({
      msg: "listening",
      url: mock.url,
      mode: values.stateful ? "stateful" : values.dynamic ? "dynamic" : "static",
      front: !values.raw,
      startupMs: mock.startupMs,
    }),
  );
  const shutdown = () => void mock.close().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
