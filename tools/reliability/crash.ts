/**
 * Crash scenario of `npm run reliability`: `kill -9` of the server under concurrent create load,
 * restart on the same SQLite file, and check that every create that got a 201 is listed (walking every
 * page) and that the file passes `PRAGMA integrity_check`, read directly with better-sqlite3.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { seededRandom } from "../../common/seeded-random.js";
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type Caller, call, templateDeployment, walkDeployments } from "../harness/http.js";
import { startReference } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface CrashOptions {
  cycles: number;
  concurrency: number;
  /** The kill comes after a random time in this range (ms) of load. */
  loadMs: [number, number];
  seed: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** Runs `PRAGMA integrity_check` on the file as the killed server left it (read-only; a copy if that fails). */
function integrityCheck(sqlitePath: string): { result: string; how: string } {
  try {
    const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
    try {
      return { result: String(db.pragma("integrity_check", { simple: true })), how: "read-only" };
    } finally {
      db.close();
    }
  } catch (error) {
    // A read-only handle cannot recover a WAL it cannot write the index of; check a copy instead.
    const copyDir = mkdtempSync(join(tmpdir(), "crash-copy-"));
    try {
      const copy = join(copyDir, "copy.sqlite");
      copyFileSync(sqlitePath, copy);
      if (existsSync(`${sqlitePath}-wal`)) copyFileSync(`${sqlitePath}-wal`, `${copy}-wal`);
      const db = new Database(copy, { fileMustExist: true });
      try {
        return {
          result: String(db.pragma("integrity_check", { simple: true })),
          how: `copy (read-only open failed: ${(error as Error).message})`,
        };
      } finally {
        db.close();
      }
    } finally {
      rmSync(copyDir, { recursive: true, force: true });
    }
  }
}

/** Keeps `concurrency` creates in flight until stopped; records the names that got 201 and anything else. */
function createLoad(
  caller: Caller,
  prefix: string,
  concurrency: number,
  acknowledged: Set<string>,
  sent: Set<string>,
  unexpected: string[],
) {
  let stopped = false;
  let counter = 0;
  const worker = async () => {
    while (!stopped) {
      const name = `${prefix}-${counter++}`;
      sent.add(name);
      try {
        const answer = await call(caller, "POST", "/v2/deployments", templateDeployment(name));
        if (answer.status === 201) acknowledged.add(name);
        else if (!stopped) unexpected.push(`${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      } catch {
        // The connection died with the server: the create may or may not have been committed.
        return;
      }
    }
  };
  const workers = Promise.all(Array.from({ length: concurrency }, worker));
  return {
    stop: async () => {
      stopped = true;
      await workers;
    },
  };
}

export async function crashScenario(options: CrashOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const rng = seededRandom(options.seed);
  const sqlitePath = join(options.dataDir, "crash.sqlite");
  const acknowledged = new Set<string>();
  const sent = new Set<string>();
  const unexpected: string[] = [];
  const checks: string[] = [];
  const verify = async (server: ChildServer, when: string) => {
    const walk = await walkDeployments({ url: server.url, apiKey: demo.acme.apiKey });
    const names = new Set<string>();
    for (const deployment of walk.deployments) {
      if (names.has(deployment.name)) failures.push(`${when}: ${deployment.name} listed twice`);
      names.add(deployment.name);
      if (!sent.has(deployment.name)) failures.push(`${when}: ${deployment.name} listed but never sent`);
    }
    const missing = [...acknowledged].filter((name) => !names.has(name));
    if (missing.length)
      failures.push(
        `${when}: ${missing.length} acknowledged creates (201) missing, e.g. ${missing.slice(0, 5).join(", ")}`,
      );
    return names.size;
  };

  for (let cycle = 0; cycle < options.cycles; cycle++) {
    const server = await startReference({
      name: `crash-${cycle}`,
      logDir: options.logDir,
      sqlitePath,
      validateResponses: false,
    });
    const listed = await verify(server, `after restart ${cycle}`);
    const load = createLoad(
      { url: server.url, apiKey: demo.acme.apiKey },
      `cr${cycle}`,
      options.concurrency,
      acknowledged,
      sent,
      unexpected,
    );
    const loadMs = options.loadMs[0] + Math.floor(rng() * (options.loadMs[1] - options.loadMs[0]));
    await new Promise((resolveWait) => setTimeout(resolveWait, loadMs));
    await server.kill("SIGKILL");
    await load.stop();
    const integrity = integrityCheck(sqlitePath);
    if (integrity.result !== "ok") failures.push(`cycle ${cycle}: integrity_check says ${integrity.result}`);
    checks.push(`${integrity.result}${integrity.how === "read-only" ? "" : ` (${integrity.how})`}`);
    options.log(
      `crash cycle ${cycle + 1}/${options.cycles}: ${listed} listed at start, load ${loadMs} ms, ${acknowledged.size} acknowledged so far, integrity ${integrity.result} (${integrity.how})`,
    );
  }
  const finalServer = await startReference({
    name: "crash-final",
    logDir: options.logDir,
    sqlitePath,
    validateResponses: false,
  });
  try {
    const listed = await verify(finalServer, "after the last restart");
    const probe = await call(
      { url: finalServer.url, apiKey: demo.acme.apiKey },
      "POST",
      "/v2/deployments",
      templateDeployment("cr-final-probe"),
    );
    if (probe.status !== 201) failures.push(`a create after the last restart answered ${probe.status}`);
    if (unexpected.length)
      failures.push(
        `${unexpected.length} creates under load answered neither 201 nor a dropped connection, e.g. ${unexpected.slice(0, 3).join("; ")}`,
      );
    const readOnly = checks.filter((c) => c === "ok").length;
    return {
      name: "crash",
      failures,
      summary: [
        `${options.cycles} cycles of kill -9 under ${options.concurrency} concurrent creates; ${acknowledged.size} creates acknowledged with 201, ${listed} deployments listed at the end (${listed - acknowledged.size} committed without an answer before the kill)`,
        `integrity_check: ${readOnly} of ${checks.length} ok (read-only open of the killed server's file)${readOnly === checks.length ? "" : `; ${checks.join(", ")}`}`,
      ],
    };
  } finally {
    await finalServer.stop();
  }
}
