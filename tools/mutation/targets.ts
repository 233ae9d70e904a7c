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

/** A schema of its own per start, so that two Stryker workers (and two starts of one) never share tables. */
/** The reference server as server/main.ts starts it, from an environment, in a data directory of its own. */
async function startReference(hosting: Hosting, database: "sqlite" | "postgres"): Promise<ListeningTarget> {
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
  const server = await startServer(loadConfig(env), { logDestination: discard });
  return {
    baseUrl: server.url,
    close: async () => {
      await server.close();
      if (schema) await dropSchema(url, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The sandbox (the mocks' engine, D-79) on the memory store, as `deployment-mock --stateful` serves it. */
async function startSandbox(hosting: Hosting): Promise<ListeningTarget> {
  const sandbox = await startMemorySandbox({ hosting, readyAfterMs, logger: pino({ level: "silent" }) });
  return { baseUrl: sandbox.url, close: () => sandbox.close() };
}

/** Starts a target of the given kind and hosting. */
export function startTarget(kind: TargetKind, hosting: Hosting): Promise<ListeningTarget> {
  if (kind === "sandbox") return startSandbox(hosting);
  return startReference(hosting, kind === "reference-postgres" ? "postgres" : "sqlite");
}
