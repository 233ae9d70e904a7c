/**
 * The reference server as the benchmark and the reliability runs start it (built, as `npm start` runs it,
 * through the one launcher, server/testing/child-server.ts), and the measures they read of its process.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ChildServer, startChildServer } from "../../server/testing/child-server.js";

/** Root of the repository (tools/harness/ is two levels below it). */
export const repoRoot = resolve(import.meta.dirname, "..", "..");

/** A fixed 256-bit key: servers started one after another on one database (seed, crash, restart) read each other's secrets. */
const benchEncryptionKey = "4b1d9e0c7a2f5e8b3c6d1a4f7e0b9c2d5a8e1f4b7c0d3e6a9f2b5c8e1d4a7b0c";

/** A memory field of /proc/<pid>/status in KiB (VmRSS, VmHWM); undefined when the process is gone. */
function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in KiB (VmRSS); undefined when gone. */
export const rssKiB = (pid: number): number | undefined => statusKiB(pid, "VmRSS");

/** Follows a process's peak resident set size (VmHWM) every `everyMs` while it lives: /proc forgets it at the exit. */
export function followPeakRss(pid: number, everyMs: number): { peakKiB(): number; stop(): void } {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, statusKiB(pid, "VmHWM") ?? 0);
  }, everyMs);
  return { peakKiB: () => peak, stop: () => clearInterval(timer) };
}

interface ReferenceOptions {
  name?: string;
  /** Its stdout and stderr go to `<logDir>/<name>.log`. */
  logDir: string;
  sqlitePath?: string;
  databaseUrl?: string;
  validateResponses?: boolean;
  /** Node options before the entry point (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Another checkout whose built server runs (the bench's before/after run). */
  root?: string;
}

/** Starts the reference server (built, as `npm start` runs it) in production mode with the demo data and a fixed encryption key. */
export function startReference(options: ReferenceOptions): Promise<ChildServer> {
  return startChildServer({
    logFile: join(options.logDir, `${options.name ?? "reference"}.log`),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.root ? { root: options.root } : {}),
    env: {
      DATABASE_URL: options.databaseUrl,
      SQLITE_PATH: options.sqlitePath,
      HOSTING: "cloud",
      ENCRYPTION_KEY: benchEncryptionKey,
      READY_AFTER_MS: "100",
      VALIDATE_RESPONSES: String(options.validateResponses ?? true),
      DEMO: "true",
      NODE_ENV: "production",
      ...options.env,
    },
  });
}
