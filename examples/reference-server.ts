/** Starts the reference server (server/main.ts) as a child process on a free port with a temporary SQLite database, for tests (launch interface of the shared brief). */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));
const serverEntry = join(repositoryRoot, "server", "main.ts");
const tsxBin = join(repositoryRoot, "node_modules", ".bin", "tsx");

/** The demo API key of organization Acme (reaches acme-production, its default tenant). */
export const demoApiKey = "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f";
/** The demo plain code-host integration of acme-production. */
export const demoIntegrationId = "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";

/** Why the reference server cannot be started here, or undefined when it can. */
export function referenceServerMissing(): string | undefined {
  return existsSync(serverEntry) ? undefined : `${serverEntry} does not exist yet`;
}

/** A running reference server. */
export interface ReferenceServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the server with PORT=0 and resolves with the URL of its "listening" log line. */
export async function startReferenceServer(environment: Record<string, string> = {}): Promise<ReferenceServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "reference-server-"));
  const child = spawn(tsxBin, [serverEntry], {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      SQLITE_PATH: join(dataDir, "db.sqlite"),
      // A key per run, so the server does not create a development key under ./data.
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      READY_AFTER_MS: "100",
      // The "listening" line is an info-level log line.
      LOG_LEVEL: "info",
      ...environment,
    },
  });
  let output = "";
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      });
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reference server did not log "listening" within 30 s:\n${output.slice(-2000)}`)), 30_000);
      let pending = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        pending += chunk.toString("utf8");
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          try {
            const entry = JSON.parse(line) as { msg?: string; url?: string };
            if (entry.msg === "listening" && entry.url) {
              clearTimeout(timer);
              resolve(entry.url);
            }
          } catch {
            // Not a JSON log line.
          }
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`reference server exited (${code}) before listening:\n${output.slice(-2000)}`));
      });
    });
    return { url, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
