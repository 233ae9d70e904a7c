/**
 * Starts and stops the processes the benchmark and the reliability runs measure: each one a child
 * process on 127.0.0.1, port 0 where the target supports it, driven only through its launch
 * interface (environment variables, the "listening" log line, signals) and HTTP. The reference
 * server is started by tools/harness/reference.ts.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { listeningUrl } from "../../server/testing/child-server.js";
import { repoRoot } from "../harness/reference.js";

/** A running target other than the reference server (a bare baseline, Prism): where it answers and how to end it. */
interface Target {
  name: string;
  url: string;
  pid: number;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

interface SpawnOptions {
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

/** Finds the URL in a `"msg":"listening"` JSON log line of a target's log, if it has been written. */
export function findListeningUrl(logText: string): string | undefined {
  return logText
    .split("\n")
    .map(listeningUrl)
    .find((url) => url !== undefined);
}

/** Spawns a target with stdout/stderr going to a log file (so the harness spends no CPU draining it). */
export async function spawnTarget(options: SpawnOptions): Promise<Target> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const logFd = openSync(options.logFile, "w");
  const child = spawn(options.command, options.args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  let exitCode: number | string | undefined;
  const exited = new Promise<void>((resolveExit) =>
    child.once("exit", (code, signal) => {
      exitCode = code ?? signal ?? -1;
      resolveExit();
    }),
  );
  const deadline = performance.now() + (options.timeoutMs ?? 30_000);
  let url: string | undefined;
  while (!url) {
    if (exitCode !== undefined)
      throw new Error(
        `${options.name} exited (${exitCode}) before listening; log ${options.logFile}:\n${tail(options.logFile)}`,
      );
    if (performance.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(
        `${options.name} did not listen within ${options.timeoutMs ?? 30_000} ms; log ${options.logFile}:\n${tail(options.logFile)}`,
      );
    }
    if (options.ready.kind === "listening-line") {
      url = findListeningUrl(readFileSync(options.logFile, "utf8"));
    } else if (await canConnect(options.ready.port)) {
      url = `http://127.0.0.1:${options.ready.port}`;
    }
    if (!url) await sleep(5);
  }
  return {
    name: options.name,
    url,
    pid: child.pid!,
    async stop(graceMs = 15_000) {
      if (exitCode !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
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
function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** The resident set split as /proc/<pid>/status gives it (RssAnon: heap, stacks and the SQLite page cache; RssFile: mapped files such as the node binary and libraries), in KiB. */
export function rssParts(pid: number): { anonKiB: number; fileKiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { anonKiB: field("RssAnon"), fileKiB: field("RssFile") };
  } catch {
    return undefined;
  }
}

/** Node running a TypeScript file through tsx's loader, as one process (so signals reach the target itself). */
export function tsNode(file: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", join(repoRoot, file)] };
}
