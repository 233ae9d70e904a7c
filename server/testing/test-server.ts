/** Test harness: a real server on 127.0.0.1 port 0, on SQLite or, when TEST_DATABASE_URL is set, on PostgreSQL in a fresh schema; log lines captured. */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { CodehostPort } from "../codehost/port.js";
import type { Config } from "../config.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { type RunningServer, startServer } from "../server.js";
import { MemoryStore } from "../storage/memory-store.js";
import { PostgresStore } from "../storage/postgres-store.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import type { Store } from "../storage/store.js";
import { freshSchemaName } from "./schema-name.js";

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON body, which tests look into freely
  body: any;
}

export interface RequestOptions {
  key?: string | null;
  tenant?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  store: Store;
  config: Config;
  /** Every log line written so far. */
  logs: string[];
  /** Where the SQLite file and the development key live. */
  dataDir: string;
  /** PostgreSQL schema of this server, when on PostgreSQL. */
  schema: string | undefined;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export const acmeKey = "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f";
export const globexKey = "dk_demo_globex_8a1c3e5f7b9d2f4a6c8e";

/** Drops a test schema. */
export async function dropSchema(schema: string): Promise<void> {
  if (!testDatabaseUrl) return;
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The configuration of a test server: its own temporary data directory and a fixed key. */
function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "deployment-service-test-"));
  return {
    port: 0,
    host: "127.0.0.1",
    databaseUrl: undefined,
    databaseSchema: undefined,
    sqlitePath: path.join(dataDir, "service.sqlite"),
    sqliteSynchronous: "FULL",
    dataDir,
    hosting: "cloud",
    encryptionKey: Buffer.alloc(32, 7),
    readyAfterMs: 60_000,
    logLevel: "info",
    validateResponses: true,
    demo: true,
    codehostFixture: undefined,
    maxConnections: 1_000,
    maxConnectionsPerAddress: 0,
    headersTimeoutMs: 10_000,
    ...overrides,
  };
}

/** Starts a server; on PostgreSQL when TEST_DATABASE_URL is set (a fresh schema, dropped on close). */
export async function startTestServer(
  overrides: Partial<Config> = {},
  options: {
    schema?: string;
    keepSchema?: boolean;
    keepDataDir?: boolean;
    codehost?: CodehostPort;
    databaseUrl?: string;
    /** The store to run on: PostgreSQL when TEST_DATABASE_URL is set, else SQLite, unless named here. */
    storeKind?: Store["kind"];
  } = {},
): Promise<TestServer> {
  const config = testConfig(overrides);
  // A data directory this harness made is removed on close, unless the test reopens it.
  const ownsDataDir = overrides.dataDir === undefined && !options.keepDataDir;
  const logs: string[] = [];
  const kind = options.storeKind ?? (testDatabaseUrl ? "postgres" : "sqlite");
  const schema = kind === "postgres" ? (options.schema ?? freshSchemaName()) : undefined;
  const store: Store =
    kind === "postgres"
      ? new PostgresStore({
          renderer: deploymentRenderer,
          connectionString: options.databaseUrl ?? (testDatabaseUrl as string),
          schema,
          poolSize: 5,
        })
      : kind === "memory"
        ? new MemoryStore({ renderer: deploymentRenderer })
        : new SqliteStore({
            renderer: deploymentRenderer,
            path: config.sqlitePath,
            synchronous: config.sqliteSynchronous,
          });
  await store.migrate();
  const server: RunningServer = await startServer(config, {
    store,
    logDestination: { write: (line: string) => void logs.push(line) },
    ...(options.codehost ? { codehost: options.codehost } : {}),
  });
  return {
    url: server.url,
    store,
    config,
    logs,
    dataDir: config.dataDir,
    schema,
    request: (method, requestPath, requestOptions) => send(server.url, method, requestPath, requestOptions),
    close: async () => {
      await server.close();
      if (schema && !options.keepSchema) await dropSchema(schema);
      if (ownsDataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** One HTTP request; `key` defaults to the Acme demo key, null sends none. */
export async function send(
  baseUrl: string,
  method: string,
  requestPath: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? acmeKey : options.key;
  if (key !== null) headers["X-Api-Key"] = key;
  if (options.tenant) headers["X-Tenant-Id"] = options.tenant;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const response = await fetch(baseUrl + requestPath, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}
