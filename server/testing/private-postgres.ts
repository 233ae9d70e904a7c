/**
 * A throwaway PostgreSQL cluster of the test's own (initdb, pg_ctl), on 127.0.0.1 and a port it
 * picks, that a test may stop and start again without touching the machine's shared server (D-81).
 * As root it runs the cluster as the `postgres` user: PostgreSQL refuses to run as root.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** How pg_ctl stops the cluster: `fast` rolls back and closes the sessions; `immediate` ends every process at once, as a crash would. */
export type StopMode = "fast" | "immediate";

export interface PrivatePostgres {
  /** A connection string to its `postgres` database. */
  url: string;
  stop(mode?: StopMode): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its files. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL's own bin folder (Debian's layout), whose programs need not be on the PATH. */
function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest && existsSync(join(root, newest, "bin", "initdb")) ? join(root, newest, "bin") : undefined;
}

/** A PostgreSQL program: from the PostgreSQL bin folder when there is one, else from the PATH. */
function program(name: string): string {
  const bin = postgresBin();
  return bin ? join(bin, name) : name;
}

/** Whether initdb and pg_ctl can be run (a machine without PostgreSQL skips the tests that need them). */
export function privatePostgresAvailable(): boolean {
  try {
    execFileSync(program("pg_ctl"), ["--version"], { stdio: "ignore" });
    execFileSync(program("initdb"), ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program, as `postgres` when this process is root; the event loop keeps running meanwhile. */
async function run(name: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const path = program(name);
  await promisify(execFile)(asRoot ? "runuser" : path, asRoot ? ["-u", "postgres", "--", path, ...args] : args);
}

/** Creates and starts a cluster (a few seconds: initdb). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "private-postgres-"));
  const dataDir = join(dir, "data");
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  await run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  // The socket goes into the cluster's own folder: the default one may not be writable.
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const start = () => run("pg_ctl", ["-D", dataDir, "-o", options, "-w", "-t", "30", "-l", join(dir, "log"), "start"]);
  const stop = (mode: StopMode) => run("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"]);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop(mode = "fast") {
      await stop(mode);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop("fast");
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
