/** Another process holding a SQLite database's write lock (BEGIN IMMEDIATE), and what a running server answers meanwhile (D-110). */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { operation } from "../../contract/index.js";

const deploymentsPath = operation("listDeployments").path;

/** The holder: a plain Node process with better-sqlite3, as a backup tool, the admin command or a second server would be. */
const holderSource = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
setTimeout(() => { db.exec("ROLLBACK"); db.close(); process.stdout.write("released\\n"); }, Number(process.argv[2]));
`;

/** A lock being held: resolves `released` when the holder has given it back. */
interface ForeignLock {
  released: Promise<void>;
}

/** Starts a process that takes the write lock of `sqlitePath` and holds it `holdMs`; resolves once it holds it. */
export function holdWriteLock(sqlitePath: string, holdMs: number): Promise<ForeignLock> {
  const child = spawn(process.execPath, ["-e", holderSource, sqlitePath, String(holdMs)], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: new URL("../../", import.meta.url).pathname,
  });
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let locked = false;
    lines.on("line", (line) => {
      if (line === "locked") {
        locked = true;
        resolve({ released: exited });
      }
    });
    child.once("exit", (code) => {
      if (!locked) reject(new Error(`the lock holder exited (${code}) before taking the lock`));
    });
  });
}

/** What the server answered while the lock was held. */
interface LockProbe {
  /** Milliseconds of each list, each in turn while the lock was held. */
  listMs: number[];
  listStatuses: number[];
  /** Milliseconds and body of each /healthz. */
  healthMs: number[];
  healthBodies: string[];
  /** The create sent while the lock was held: its status, Retry-After, milliseconds, and whether it was answered before the holder let go. */
  create: { status: number; retryAfter: string | null; ms: number; beforeRelease: boolean };
}

/**
 * Holds the write lock of the server's database for `holdMs` from another process and meanwhile sends, one
 * after the other, lists and /healthz (timed), and once a create (a deployment of the given body).
 */
export async function probeDuringForeignLock(options: {
  baseUrl: string;
  sqlitePath: string;
  apiKey: string;
  holdMs: number;
  createBody: unknown;
}): Promise<LockProbe> {
  const headers = { "X-Api-Key": options.apiKey };
  const timed = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(`${options.baseUrl}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    const text = await response.text();
    return { response, text, ms: performance.now() - started };
  };
  const lock = await holdWriteLock(options.sqlitePath, options.holdMs);
  let releasedYet = false;
  const released = lock.released.then(() => {
    releasedYet = true;
  });
  const createAnswer = timed(deploymentsPath, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(options.createBody),
  }).then(({ response, ms }) => ({
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    ms,
    beforeRelease: !releasedYet,
  }));
  const probe: Omit<LockProbe, "create"> = { listMs: [], listStatuses: [], healthMs: [], healthBodies: [] };
  // Bounded: at most one pair per 20 ms of the hold, and never after the holder let go.
  for (let round = 0; round < options.holdMs / 20 && !releasedYet; round++) {
    const list = await timed(`${deploymentsPath}?limit=20`);
    if (releasedYet) break;
    probe.listMs.push(list.ms);
    probe.listStatuses.push(list.response.status);
    const health = await timed("/healthz");
    if (releasedYet) break;
    probe.healthMs.push(health.ms);
    probe.healthBodies.push(health.text);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await released;
  return { ...probe, create: await createAnswer };
}
