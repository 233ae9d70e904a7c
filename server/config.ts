/** Server configuration from environment variables with defaults (launch interface), validated at start-up. */
import path from "node:path";
import { defaultMaxConnections } from "./descriptor-limit.js";

/** Where deployments may run (interface spec, create rules 2 and 3; D-46). */
export type Hosting = "cloud" | "self_hosted";

/** The validated configuration of one server process. */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; SQLite is used when unset. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (created when missing); the connection's default search_path when unset. */
  databaseSchema: string | undefined;
  sqlitePath: string;
  /** FULL: every commit synced to disk (survives power loss); NORMAL: WAL synced at checkpoints (survives kill -9, faster). */
  sqliteSynchronous: "FULL" | "NORMAL";
  /** Directory of the development encryption key (and the default SQLite file). */
  dataDir: string;
  hosting: Hosting;
  /** 32-byte key for AES-256-GCM; a development key is generated in dataDir when unset. */
  encryptionKey: Buffer | undefined;
  readyAfterMs: number;
  logLevel: string;
  validateResponses: boolean;
  demo: boolean;
  /** Code-host fixture file; the demo fixture when unset and DEMO is on. */
  codehostFixture: string | undefined;
  /** Open connections at most; more are closed as they arrive (D-465). */
  maxConnections: number;
  /** Open connections from one client address at most, 0 for no cap; more are answered 503 and closed (D-466). */
  maxConnectionsPerAddress: number;
  /** How long a request's head may take to arrive; then 408 and the connection is closed (D-467). */
  headersTimeoutMs: number;
}

/** A bad configuration value; its message is one line naming the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Parses and validates the environment; throws ConfigError on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? "./data");
  const production = env.NODE_ENV === "production";
  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: nonEmpty(env.HOST) ?? "127.0.0.1",
    databaseUrl: databaseUrl(env),
    databaseSchema: databaseSchema(env),
    sqlitePath: path.resolve(nonEmpty(env.SQLITE_PATH) ?? path.join(dataDir, "service.sqlite")),
    sqliteSynchronous: oneOf(
      { SQLITE_SYNCHRONOUS: env.SQLITE_SYNCHRONOUS?.toLowerCase() },
      "SQLITE_SYNCHRONOUS",
      ["full", "normal"] as const,
      "full",
    ).toUpperCase() as "FULL" | "NORMAL",
    dataDir,
    hosting: oneOf(env, "HOSTING", ["cloud", "self_hosted"] as const, "cloud"),
    encryptionKey: encryptionKey(env),
    readyAfterMs: integer(env, "READY_AFTER_MS", 2000, 0, 86_400_000),
    logLevel: oneOf(env, "LOG_LEVEL", logLevels, "info"),
    validateResponses: boolean(env, "VALIDATE_RESPONSES", !production),
    demo: boolean(env, "DEMO", true),
    codehostFixture: nonEmpty(env.CODEHOST_FIXTURE) ? path.resolve(env.CODEHOST_FIXTURE as string) : undefined,
    maxConnections: integer(env, "MAX_CONNECTIONS", defaultMaxConnections(), 1, 10_000_000),
    maxConnectionsPerAddress: integer(env, "MAX_CONNECTIONS_PER_ADDRESS", 256, 0, 10_000_000),
    // At most the 30 s a whole request may take (the server's requestTimeout).
    headersTimeoutMs: integer(env, "HEADERS_TIMEOUT_MS", 10_000, 100, 30_000),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got '${raw}'`);
  return raw as T;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = nonEmpty(env.DATABASE_URL);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("DATABASE_URL must be a postgres:// URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got scheme '${url.protocol}'`);
  }
  return raw;
}

function databaseSchema(env: NodeJS.ProcessEnv): string | undefined {
  const raw = nonEmpty(env.DATABASE_SCHEMA);
  if (raw === undefined) return undefined;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw))
    throw new ConfigError(`DATABASE_SCHEMA must be a lower-case SQL identifier, got '${raw}'`);
  return raw;
}

function encryptionKey(env: NodeJS.ProcessEnv): Buffer | undefined {
  const raw = nonEmpty(env.ENCRYPTION_KEY);
  if (raw === undefined) return undefined;
  // The value itself never appears in the message: it is a secret.
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new ConfigError("ENCRYPTION_KEY must be 64 hex characters (32 bytes)");
  return Buffer.from(raw, "hex");
}
