/**
 * Who runs the SQLite adapter's deployment writes (D-91): for a database file, a worker thread with its
 * own connection, so that the inserts, the provisioning sweep and the fsync of each commit take the
 * second core instead of the event loop that answers requests; for ":memory:" (a connection no thread
 * can share), the store's own connection.
 */
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { DeploymentRecord, NewDeployment } from "./records.js";
import type { Synchronous } from "./sqlite-connection.js";
import { type CreateOutcome, DeploymentWrites, GroupCommit } from "./sqlite-deployment-writes.js";
import type { WriterReply, WriterRequest, WriterThreadData } from "./sqlite-writer-thread.js";
import { UniqueViolation } from "./store.js";

/** The deployment writes of a SQLite store. */
export interface DeploymentWriter {
  /** Stores the deployment in the next group commit; rejects with UniqueViolation when its name is taken. */
  create(deployment: NewDeployment, nowUs: number): Promise<DeploymentRecord>;
  /** Stores READY for up to batchSize deployments whose provisioning ended by nowUs; resolves to how many. */
  promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number>;
  /** Commits what is queued and stops. */
  close(): Promise<void>;
}

/** The writes on the store's own connection (":memory:"): group commits on the event loop. */
export function inThreadWriter(db: Database.Database): DeploymentWriter {
  const writes = new DeploymentWrites(db);
  const commits = new GroupCommit(writes);
  return {
    create: (deployment, nowUs) =>
      new Promise((resolve, reject) =>
        commits.add(deployment, nowUs, (outcome) =>
          "record" in outcome ? resolve(outcome.record) : reject(outcome.error),
        ),
      ),
    promoteReadyDeployments: async (nowUs, batchSize) => writes.promoteReadyDeployments(nowUs, batchSize),
    close: async () => commits.flushAll(),
  };
}

/**
 * The writes on a worker thread's connection to the same file. Every answer comes after the commit that
 * holds it, so a 201 is as durable as before, and the store's reads see it (WAL: a read started after a
 * commit sees it). A thread that dies fails what it was asked, and the next write starts a new one.
 */
export function threadWriter(file: string, synchronous: Synchronous): DeploymentWriter {
  let worker: { thread: Worker; waiting: Map<number, Waiting> } | undefined;
  let nextId = 1;

  const started = (): NonNullable<typeof worker> => {
    if (worker) return worker;
    const thread = startWriterThread({ file, synchronous });
    const waiting = new Map<number, Waiting>();
    const current = { thread, waiting };
    // What this thread was asked fails with it; a later write starts a new thread.
    const failAll = (error: Error) => {
      if (worker === current) worker = undefined;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    thread.on("message", (reply: WriterReply) => {
      const caller = waiting.get(reply.id);
      waiting.delete(reply.id);
      // Idle, the thread does not keep the process alive; a pending write does.
      if (waiting.size === 0) thread.unref();
      caller?.resolve(reply);
    });
    thread.on("error", (error: unknown) => {
      // A driver's error reaches this thread as plain data (its class stays behind).
      const { message, code } = error as { message?: string; code?: unknown };
      failAll(
        Object.assign(new Error(`the SQLite writer thread failed: ${message ?? String(code ?? error)}`), {
          ...(typeof code === "string" ? { code } : {}),
        }),
      );
    });
    thread.on("exit", (code) => failAll(new Error(`the SQLite writer thread exited (code ${code})`)));
    worker = current;
    return current;
  };
  const ask = (request: WriterRequest, to = started()): Promise<WriterReply> =>
    new Promise((resolve, reject) => {
      to.waiting.set(request.id, { resolve, reject });
      to.thread.ref();
      to.thread.postMessage(request);
    });

  return {
    async create(deployment, nowUs) {
      const reply = await ask({ kind: "create", id: nextId++, deployment, nowUs });
      return outcomeValue(reply.outcome as CreateOutcome);
    },
    async promoteReadyDeployments(nowUs, batchSize) {
      const reply = await ask({ kind: "promote", id: nextId++, nowUs, batchSize });
      if (reply.outcome && "error" in reply.outcome) throw errorFromThread(reply.outcome.error);
      return reply.count ?? 0;
    },
    async close() {
      const current = worker;
      if (!current) return;
      worker = undefined;
      try {
        await ask({ kind: "close", id: nextId++ }, current);
      } catch {
        // The thread failed first: what it was asked has already failed with it, nothing is left to commit.
      }
      await current.thread.terminate();
    },
  };
}

/** A caller waiting for the thread's reply. */
interface Waiting {
  resolve: (reply: WriterReply) => void;
  reject: (error: unknown) => void;
}

/** The thread's code: the bundle's entry beside this chunk when built (D-89), the TypeScript source through tsx otherwise. */
function startWriterThread(workerData: WriterThreadData): Worker {
  const here = import.meta.filename;
  if (here.endsWith(".mjs"))
    return new Worker(new URL("./sqlite-writer-thread.mjs", pathToFileURL(here)), { workerData });
  const source = new URL("./sqlite-writer-thread.ts", pathToFileURL(here)).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`,
    { eval: true, workerData },
  );
}

/** The record of a create, or its error as the store's callers know it. */
function outcomeValue(outcome: CreateOutcome): DeploymentRecord {
  if ("record" in outcome) return outcome.record;
  throw errorFromThread(outcome.error);
}

/** An error as the thread sent it (see errorForMessage): UniqueViolation again, else an Error with the same name, message and code. */
function errorFromThread(sent: unknown): unknown {
  const { unique, name, message, code } = sent as { unique?: string; name: string; message: string; code?: string };
  if (unique !== undefined) return new UniqueViolation(unique);
  return Object.assign(new Error(message), { name, ...(code === undefined ? {} : { code }) });
}
