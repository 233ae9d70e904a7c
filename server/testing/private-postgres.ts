/**
 * A throwaway PostgreSQL cluster of the test's own (initdb, pg_ctl), on 127.0.0.1 and a port it
 * picks, that a test may stop and start again without touching the machine's shared server (D-81).
 * As root it runs the cluster as the `postgres` user: PostgreSQL refuses to run as root.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PrivatePostgres {
  /** A connection string to its `postgres` database. */
  url: string;
  stop(): void;
  start(): void;
  /** Stops the cluster and removes its files. */
  destroy(): void;
}

/** Whether initdb and pg_ctl are on the PATH (a machine without PostgreSQL skips the tests that need them). */
export function privatePostgresAvailable(): boolean {
  try {
    execFileSync("pg_ctl", ["--version"], { stdio: "ignore" });
    execFileSync("initdb", ["--version"], { stdio: "ignore" });
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

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
function run(program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? "runuser" : program, asRoot ? ["-u", "postgres", "--", program, ...args] : args, {
    stdio: ["ignore", "ignore", "pipe"],
  });
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
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  // The socket goes into the cluster's own folder: the default one may not be writable.
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const start = () => run("pg_ctl", ["-D", dataDir, "-o", options, "-w", "-t", "30", "-l", join(dir, "log"), "start"]);
  const stop = () => run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      stop();
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      if (running) stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
