/**
 * Starts and stops the processes the benchmark and the reliability runs measure (issue 6): each one a
 * child process on 127.0.0.1, port 0 where the target supports it, driven only through its launch
 * interface (environment variables, the "listening" log line, signals) and HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Root of the repository (scripts/bench/ is two levels below it). */
export const repoRoot = resolve(import.meta.dirname, "..", "..");

/** The demo API keys and tenants of the shared brief (fixed values seeded on an empty database). */
export const demo = {
  acmeKey: "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f",
  globexKey: "dk_demo_globex_8a1c3e5f7b9d2f4a6c8e",
  acmeProduction: "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f",
  acmeStaging: "2d8e4f3b-9c57-4d80-9f4c-8b2e5a3c4d62",
  globexProduction: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60",
  acmeIntegration: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
  acmeManagedIntegration: "5e2d3b0f-6c8e-4f3a-9b7d-2e1f0c9b8d76",
  globexIntegration: "8c4b2a1d-3e5f-4a6b-9c8d-7e6f5a4b3c21",
} as const;

/** A fixed 256-bit key so the server never writes a development key into ./data/. */
export const benchEncryptionKey = "4b1d9e0c7a2f5e8b3c6d1a4f7e0b9c2d5a8e1f4b7c0d3e6a9f2b5c8e1d4a7b0c";

/** A running target: where it answers, its process, and how to end it. */
export interface Target {
  name: string;
  url: string;
  pid: number;
  startedAt: number;
  /** Milliseconds from spawn to the "listening" line (or the first TCP accept for targets without one). */
  listeningAfterMs: number;
  logFile: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code/signal and how long it took. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /** SIGKILL, resolves when the process is gone. */
  kill9(): Promise<ExitInfo>;
  exited: Promise<ExitInfo>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the signal to the exit. */
  afterMs: number;
}

export interface SpawnOptions {
  name: string;
  /** Executable and arguments. */
  command: string;
  args: string[];
  env?: Record<string, string | undefined>;
  logFile: string;
  /** How the URL is found once the process is up. */
  ready: { kind: "listening-line" } | { kind: "port"; port: number };
  timeoutMs?: number;
}

/** A free TCP port on 127.0.0.1, for targets that cannot listen on port 0 and report it (Prism). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Finds the URL in the server's `"msg":"listening"` JSON log line, if it has been written. */
export function findListeningUrl(logText: string): string | undefined {
  for (const line of logText.split("\n")) {
    if (!line.includes("listening")) continue;
    try {
      const record = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (record.msg === "listening" && typeof record.url === "string") return record.url;
    } catch {
      // Not a JSON line (e.g. a stack trace); keep looking.
    }
  }
  return undefined;
}

/** Spawns a target with stdout/stderr going to a log file (so the harness spends no CPU draining it). */
export async function spawnTarget(options: SpawnOptions): Promise<Target> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const logFd = openSync(options.logFile, "w");
  const startedAt = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  let exitInfo: ExitInfo | undefined;
  let signalledAt = 0;
  const exited = new Promise<ExitInfo>((resolveExit) => {
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal, afterMs: signalledAt ? performance.now() - signalledAt : 0 };
      resolveExit(exitInfo);
    });
  });
  const deadline = startedAt + (options.timeoutMs ?? 30_000);
  let url: string | undefined;
  while (!url) {
    if (exitInfo) throw new Error(`${options.name} exited (${exitInfo.code ?? exitInfo.signal}) before listening; log ${options.logFile}:\n${tail(options.logFile)}`);
    if (performance.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not listen within ${options.timeoutMs ?? 30_000} ms; log ${options.logFile}:\n${tail(options.logFile)}`);
    }
    if (options.ready.kind === "listening-line") {
      url = findListeningUrl(readFileSync(options.logFile, "utf8"));
    } else if (await canConnect(options.ready.port)) {
      url = `http://127.0.0.1:${options.ready.port}`;
    }
    if (!url) await sleep(5);
  }
  const listeningAfterMs = performance.now() - startedAt;
  const signal = async (sig: NodeJS.Signals, graceMs: number): Promise<ExitInfo> => {
    if (exitInfo) return exitInfo;
    signalledAt = performance.now();
    child.kill(sig);
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    const info = await exited;
    clearTimeout(timer);
    return info;
  };
  return {
    name: options.name,
    url,
    pid: child.pid ?? -1,
    startedAt,
    listeningAfterMs,
    logFile: options.logFile,
    child,
    exited,
    stop: (graceMs = 15_000) => signal("SIGTERM", graceMs),
    kill9: () => signal("SIGKILL", 5_000),
  };
}

async function canConnect(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolveConnect) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolveConnect(true);
    });
    socket.once("error", () => resolveConnect(false));
  });
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Resident set size of a process in KiB, from /proc/<pid>/status (VmRSS); undefined when gone. */
export function rssKiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Node running a TypeScript file through tsx's loader, as one process (so signals reach the server itself). */
export function tsNode(file: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", join(repoRoot, file)] };
}

export interface ReferenceOptions {
  name?: string;
  logDir: string;
  sqlitePath?: string;
  databaseUrl?: string;
  validateResponses?: boolean;
  hosting?: "cloud" | "self_hosted";
  readyAfterMs?: number;
  logLevel?: string;
  env?: Record<string, string>;
}

/** Starts the reference server (server/main.ts) through its launch interface. */
export function startReference(options: ReferenceOptions): Promise<Target> {
  const name = options.name ?? "reference";
  const { command, args } = tsNode("server/main.ts");
  return spawnTarget({
    name,
    command,
    args,
    logFile: join(options.logDir, `${name}.log`),
    ready: { kind: "listening-line" },
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: undefined,
      DATABASE_URL: options.databaseUrl,
      SQLITE_PATH: options.sqlitePath,
      HOSTING: options.hosting ?? "cloud",
      ENCRYPTION_KEY: benchEncryptionKey,
      READY_AFTER_MS: String(options.readyAfterMs ?? 100),
      LOG_LEVEL: options.logLevel ?? "info",
      VALIDATE_RESPONSES: String(options.validateResponses ?? true),
      DEMO: "true",
      ...options.env,
    },
  });
}
