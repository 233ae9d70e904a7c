/**
 * The targets of the mutation run (D-360), each listening on a port of its own in the test's process, so that a
 * mutant is judged through what a client reaches: the reference server as `npm start` starts it (its configuration
 * from the environment, so the defaults hold: response validation on; the Koa adapter; the store opened from
 * DATABASE_URL) on SQLite or on PostgreSQL, and the sandbox's Node server over its fetch adapter (D-171). Each
 * target holds the demo data and turns deployments READY after a short delay, so that the status checks settle fast.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { startMemorySandbox } from "../../mock/src/engine/memory-sandbox-server.js";
import { type Hosting, loadConfig } from "../../server/config.js";
import { startServer } from "../../server/server.js";
import { freshSchemaName } from "../../server/testing/schema-name.js";
import { dropSchema, postgresBaseUrl } from "../harness/postgres.js";

/** Which implementation a target runs, and on which store. */
export type TargetKind = "reference-sqlite" | "reference-postgres" | "sandbox";

/** A target listening on 127.0.0.1: the base URL the suite dials, and how to stop it. */
export interface ListeningTarget {
  baseUrl: string;
  close(): Promise<void>;
}

/** Milliseconds until a new deployment turns READY: short, so that checks waiting for it settle in a moment. */
export const readyAfterMs = 50;

/** Log lines are not answers: they go nowhere. */
const discard = { write: () => {} };

/** What an operator sets for one reference server, in a data directory (and a PostgreSQL schema) of its own; the rest is the default. */
interface ReferenceEnvironment {
  env: NodeJS.ProcessEnv;
  /** Drops the schema and the data directory. */
  remove(): Promise<void>;
}

/** A reference server's environment on SQLite or PostgreSQL: a schema of its own, so two Stryker workers never share tables. */
export function referenceEnvironment(hosting: Hosting, database: "sqlite" | "postgres"): ReferenceEnvironment {
  const dataDir = mkdtempSync(join(tmpdir(), "mutation-target-"));
  const url = postgresBaseUrl();
  const schema = database === "postgres" ? freshSchemaName("mutation") : undefined;
  // what an operator sets; everything else (response validation, connection caps, timeouts) is the default
  const env: NodeJS.ProcessEnv = {
    PORT: "0",
    DATA_DIR: dataDir,
    HOSTING: hosting,
    READY_AFTER_MS: String(readyAfterMs),
    LOG_LEVEL: "silent",
    ...(schema ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}),
  };
  return {
    env,
    remove: async () => {
      if (schema) await dropSchema(url, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The reference server as server/main.ts starts it, from an environment. */
export async function startReference(env: NodeJS.ProcessEnv): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await startServer(loadConfig(env), { logDestination: discard });
  return { baseUrl: server.url, close: () => server.close() };
}

/** The sandbox (the mocks' engine, D-79) on the memory store, as `deployment-mock --stateful` serves it. */
async function startSandbox(hosting: Hosting): Promise<ListeningTarget> {
  const sandbox = await startMemorySandbox({ hosting, readyAfterMs, logger: pino({ level: "silent" }) });
  return { baseUrl: sandbox.url, close: () => sandbox.close() };
}

/** Starts a target of the given kind and hosting. */
export function startTarget(kind: TargetKind, hosting: Hosting): Promise<ListeningTarget> {
  if (kind === "sandbox") return startSandbox(hosting);
  const where = referenceEnvironment(hosting, kind === "reference-postgres" ? "postgres" : "sqlite");
  return startReference(where.env).then(
    (server) => ({
      baseUrl: server.baseUrl,
      close: async () => {
        await server.close();
        await where.remove();
      },
    }),
    async (error: unknown) => {
      await where.remove();
      throw error;
    },
  );
}
