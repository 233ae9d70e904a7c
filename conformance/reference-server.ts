/** Starts the reference server as a child process (brief: launch interface) and waits for its "listening" line. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ReferenceServer {
  url: string;
  child: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its temporary directory. */
  stop(): Promise<void>;
  /** The server's output so far (for diagnostics when something goes wrong). */
  output(): string;
}

export interface ReferenceServerOptions {
  hosting?: "cloud" | "self_hosted";
  /** PostgreSQL URL; SQLite in a temporary directory when unset. */
  databaseUrl?: string;
  readyAfterMs?: number;
  /** Extra environment (e.g. fault flags of a test). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The URL announced by a stdout line: the JSON `"msg":"listening"` line, or a banner naming the address. */
export function listeningUrl(line: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed.startsWith("{")) {
    try {
      const entry = JSON.parse(trimmed) as { msg?: string; url?: string };
      if (entry.msg === "listening" && typeof entry.url === "string") return entry.url;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const dir = mkdtempSync(join(tmpdir(), "conformance-ref-"));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: "0",
    HOST: "127.0.0.1",
    HOSTING: options.hosting ?? "cloud",
    DEMO: "true",
    READY_AFTER_MS: String(options.readyAfterMs ?? 200),
    // info: the "listening" line is an info entry
    LOG_LEVEL: "info",
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    SQLITE_PATH: join(dir, "service.sqlite"),
    ...(options.env ?? {}),
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
  const child = spawn(tsx, [join(repoRoot, "server", "main.ts")], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the reference server did not report "listening" within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`)), options.startTimeoutMs ?? 30_000);
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-65_536);
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const found = listeningUrl(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-65_536);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
