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
setTimeout(() => { process.stdout.write("releasing " + Date.now() + "\\n"); db.exec("ROLLBACK"); db.close(); }, Number(process.argv[2]));
`;

/** A lock being held: `released` resolves, once the holder has exited, with the wall-clock time (ms) just before it let go. */
interface ForeignLock {
  released: Promise<number>;
}

/** Starts a process that takes the write lock of `sqlitePath` and holds it `holdMs`; resolves once it holds it. */
export function holdWriteLock(sqlitePath: string, holdMs: number): Promise<ForeignLock> {
  const child = spawn(process.execPath, ["-e", holderSource, sqlitePath, String(holdMs)], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: new URL("../../", import.meta.url).pathname,
  });
  const lines = createInterface({ input: child.stdout });
  let releasingAt = Number.POSITIVE_INFINITY;
  const exited = new Promise<number>((resolve) => child.once("exit", () => resolve(releasingAt)));
  return new Promise((resolve, reject) => {
    let locked = false;
    lines.on("line", (line) => {
      if (line === "locked") {
        locked = true;
        resolve({ released: exited });
      }
      const releasing = /^releasing (\d+)$/.exec(line);
      if (releasing) releasingAt = Number(releasing[1]);
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
    return { response, text, ms: performance.now() - started, endedAt: Date.now() };
  };
  const lock = await holdWriteLock(options.sqlitePath, options.holdMs);
  let releasedYet = false;
  const released = lock.released.then((releasingAt) => {
    releasedYet = true;
    return releasingAt;
  });
  const createAnswer = timed(deploymentsPath, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(options.createBody),
  });
  const lists: Array<Awaited<ReturnType<typeof timed>>> = [];
  const healths: Array<Awaited<ReturnType<typeof timed>>> = [];
  // Bounded: at most one pair per 20 ms of the hold, and none after the holder has exited.
  for (let round = 0; round < options.holdMs / 20 && !releasedYet; round++) {
    lists.push(await timed(`${deploymentsPath}?limit=20`));
    healths.push(await timed("/healthz"));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const releasingAt = await released;
  // Only answers that ended before the holder began to let go were surely given under the lock; the exit is
  // seen later than the release, later still on a loaded machine.
  const held = (answer: { endedAt: number }) => answer.endedAt < releasingAt;
  const create = await createAnswer;
  return {
    listMs: lists.filter(held).map((list) => list.ms),
    listStatuses: lists.filter(held).map((list) => list.response.status),
    healthMs: healths.filter(held).map((health) => health.ms),
    healthBodies: healths.filter(held).map((health) => health.text),
    create: {
      status: create.response.status,
      retryAfter: create.response.headers.get("retry-after"),
      ms: create.ms,
      beforeRelease: held(create),
    },
  };
}
