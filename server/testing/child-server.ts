/** The one launcher of the reference server as a child process (the built `dist/server/main.mjs`, as `npm start` runs it), for the kill -9 and multi-process tests, the suite, the benchmark and the reliability runs. */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scaledMs } from "../../common/machine-time.js";

/** Written by `npm run build` (tools/build/build-server.ts) under a checkout; the test run builds it first (vitest's global set-up). */
const builtMain = (root: string) => join(root, "dist", "server", "main.mjs");
const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The command `npm start` runs (package.json: `[NAME=value …] [exec] node [flags] dist/server/main.mjs`; `exec` so
 * that a signal to `npm start` reaches the server, D-265): the launcher runs that very command, so its environment
 * settings and Node flags (D-89) are written once.
 */
export function startCommand(root = repositoryRoot): { env: Record<string, string>; args: string[] } {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? "")) {
    const [name, ...value] = (words.shift() as string).split("=");
    env[name as string] = value.join("=");
  }
  if (words[0] === "exec") words.shift();
  const [program, ...args] = words;
  if (program !== "node" || args.at(-1) !== "dist/server/main.mjs")
    throw new Error(
      `package.json's start script should be "[NAME=value …] [exec] node [flags] dist/server/main.mjs", not "${manifest.scripts.start}"`,
    );
  return { env, args: args.map((arg) => (arg.startsWith("-") ? arg : join(root, arg))) };
}

/** How to start the server. */
interface ChildServerOptions {
  /**
   * The server's environment over the defaults `PORT=0`, `HOST=127.0.0.1`, `LOG_LEVEL=info` (the
   * "listening" line is an info entry) and a temporary `DATA_DIR` removed when the process ends.
   * `undefined` removes a variable. Of the parent's environment only `PATH` is passed on, so a
   * `DATABASE_URL` of the caller's shell cannot reach a server meant to use SQLite.
   */
  env?: Record<string, string | undefined>;
  /** Node options before the entry point, e.g. `["--cpu-prof", "--cpu-prof-dir", dir]`. */
  nodeArgs?: string[];
  /**
   * Write stdout and stderr straight into this file instead of reading them: a load test's harness
   * then spends no CPU on the one log line per request. `lines()` reads the file.
   */
  logFile?: string;
  /** Give up (and SIGKILL the process) when no "listening" line came after this long; default 30 s. */
  startTimeoutMs?: number;
  /** The checkout whose built server runs, with its own package.json's start command (default this one; the bench's before/after run gives another). */
  root?: string;
}

/** A running server. */
export interface ChildServer {
  /** Where it listens, from its "listening" line, e.g. `http://127.0.0.1:41234`. */
  url: string;
  pid: number;
  process: ChildProcess;
  /** `performance.now()` at spawn. */
  startedAt: number;
  /** Milliseconds from spawn to the "listening" line. */
  listeningAfterMs: number;
  /** Every stdout line so far (with `logFile`: every line of the file, stdout and stderr). */
  lines(): string[];
  /** Everything printed to stderr so far (empty with `logFile`). */
  stderr(): string;
  /** Resolves with the exit code, or the signal name, when the process ends. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL when the process is still there after `graceMs` (default 5 s); resolves with the exit. */
  stop(graceMs?: number): Promise<number | string>;
  /** Sends a signal and resolves with the exit (no escalation: a SIGTERM that is ignored never resolves). */
  kill(signal: NodeJS.Signals): Promise<number | string>;
}

/** The URL of the server's `"msg":"listening"` JSON log line, or undefined for any other line. */
export function listeningUrl(line: string): string | undefined {
  if (!line.includes("listening")) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return entry.msg === "listening" && typeof entry.url === "string" ? entry.url : undefined;
  } catch {
    return undefined;
  }
}

/** Spawns the server and resolves once it has printed its "listening" line. */
export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const root = options.root ?? repositoryRoot;
  if (!existsSync(builtMain(root))) throw new Error(`${builtMain(root)} does not exist: run \`npm run build\` first`);
  const ownDataDir = options.env?.DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), "reference-server-")) : undefined;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    PATH: process.env.PATH,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    DATA_DIR: ownDataDir,
    ...options.env,
  })) {
    if (value !== undefined) env[name] = value;
  }
  let logFd: number | undefined;
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    logFd = openSync(options.logFile, "w");
  }
  const startedAt = performance.now();
  const command = startCommand(root);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...command.args], {
    cwd: root,
    env: { ...command.env, ...env },
    stdio: logFd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", logFd, logFd],
  });
  if (logFd !== undefined) closeSync(logFd);
  // A parent that exits without stopping the server (an uncaught error) must not leave it listening.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      process.removeListener("exit", killOnExit);
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      resolve(code ?? signal ?? -1);
    }),
  );

  const stdout: string[] = [];
  let stderr = "";
  const lines = () => (options.logFile ? readLog(options.logFile) : stdout);
  const diagnostics = () => (options.logFile ? lines().slice(-20).join("\n") : stderr || stdout.slice(-20).join("\n"));
  // 30 s on an idle machine, longer on a loaded one (D-403).
  const timeoutMs = options.startTimeoutMs ?? scaledMs(30_000);
  const url = await new Promise<string>((resolve, reject) => {
    let poll: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill("SIGKILL");
      reject(new Error(`the server did not print "listening" within ${timeoutMs} ms:\n${diagnostics()}`));
    }, timeoutMs);
    const found = (address: string) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve(address);
    };
    void exited.then((code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`the server exited (${code}) before listening:\n${diagnostics()}`));
    });
    if (options.logFile) {
      const file = options.logFile;
      poll = setInterval(() => {
        const address = readLog(file)
          .map(listeningUrl)
          .find((candidate) => candidate !== undefined);
        if (address) found(address);
      }, 5);
      return;
    }
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        stdout.push(line);
        const address = listeningUrl(line);
        if (address) found(address);
      }
    });
  });
  const listeningAfterMs = performance.now() - startedAt;

  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    pid: child.pid!,
    process: child,
    startedAt,
    listeningAfterMs,
    lines,
    stderr: () => stderr,
    exited,
    async stop(graceMs = 5_000) {
      if (!running()) return exited;
      child.kill("SIGTERM");
      const escalate = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const exit = await exited;
      clearTimeout(escalate);
      return exit;
    },
    kill(signal) {
      if (running()) child.kill(signal);
      return exited;
    },
  };
}

function readLog(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}
