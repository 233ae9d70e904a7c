/** A reliability scenario's measure run against the reference server on SQLite, then on PostgreSQL (a schema of its own) when it can be reached. */
import { join } from "node:path";
import pg from "pg";
import type { ChildServer } from "../../server/testing/child-server.js";
import { processUsage } from "../bench/server-cpu.js";
import { postgresBaseUrl, withSearchPath } from "./postgres.js";
import { startReference } from "./reference.js";

/** CPU milliseconds used so far by the server process and, on PostgreSQL, by the backends serving it. */
export type CpuClock = () => Promise<number>;

/** One store's run: the server, the store's name for the summary, and its CPU clock. */
type StoreMeasure = (server: ChildServer, store: "SQLite" | "PostgreSQL", cpu: CpuClock) => Promise<string[]>;

interface ServerOptions {
  /** The servers' log names are `<name>-sqlite` and `<name>-postgres`; the schema's starts with it. */
  name: string;
  logDir: string;
  /** The servers' environment over startReference's. */
  env?: Record<string, string>;
  /** Check every answer against the contract (default false, as in production). */
  validateResponses?: boolean;
}

interface EachStoreOptions extends ServerOptions {
  /** Where the SQLite file goes. */
  dataDir: string;
}

/** The CPU of the server process alone (SQLite runs in it). */
function serverCpu(server: ChildServer): CpuClock {
  return async () => processUsage(server.pid)?.cpuMs ?? 0;
}

/**
 * The server's CPU plus that of the PostgreSQL backends connected to the run's database (the scenario's own, but
 * for the admin connection), so a query's cost counts where PostgreSQL spends it; a backend that closed meanwhile
 * is not counted, which only lowers the figure.
 */
function serverAndBackendCpu(server: ChildServer, admin: pg.Client): CpuClock {
  return async () => {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.reduce((sum, { pid }) => sum + (processUsage(pid)?.cpuMs ?? 0), processUsage(server.pid)?.cpuMs ?? 0);
  };
}

/**
 * Starts the reference server on PostgreSQL in a schema of its own, runs `run` against it and drops the schema
 * after; when PostgreSQL cannot be reached, says so (its address without credentials) instead.
 */
export async function onPostgres<T>(
  options: ServerOptions,
  run: (server: ChildServer, admin: pg.Client) => Promise<T>,
): Promise<{ ran: T } | { unreachable: string }> {
  const base = postgresBaseUrl();
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return { unreachable: `unreachable at ${base.replace(/\/\/[^@]*@/, "//")} (${(error as Error).message})` };
  }
  const schema = `${options.name.replaceAll("-", "_")}_${process.pid}_${Date.now().toString(36)}`;
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const server = await startReference({
      name: `${options.name}-postgres`,
      logDir: options.logDir,
      databaseUrl: withSearchPath(base, schema),
      validateResponses: options.validateResponses ?? false,
      env: { ...options.env, DATABASE_SCHEMA: schema },
    });
    try {
      return { ran: await run(server, admin) };
    } finally {
      await server.stop();
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

/** Runs `measure` on each store in turn; the summary lines of both. */
export async function onEachStore(options: EachStoreOptions, measure: StoreMeasure): Promise<string[]> {
  const summary: string[] = [];
  const sqlite = await startReference({
    name: `${options.name}-sqlite`,
    logDir: options.logDir,
    sqlitePath: join(options.dataDir, `${options.name}.sqlite`),
    validateResponses: options.validateResponses ?? false,
    ...(options.env ? { env: options.env } : {}),
  });
  try {
    summary.push(...(await measure(sqlite, "SQLite", serverCpu(sqlite))));
  } finally {
    await sqlite.stop();
  }
  const postgres = await onPostgres(options, (server, admin) =>
    measure(server, "PostgreSQL", serverAndBackendCpu(server, admin)),
  );
  summary.push(...("ran" in postgres ? postgres.ran : [`PostgreSQL: skipped, ${postgres.unreachable}`]));
  return summary;
}
