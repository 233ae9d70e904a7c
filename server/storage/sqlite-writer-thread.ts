/** The SQLite writer thread (D-91): its own connection to the store's file, running the deployment writes the store sends it, one group commit per turn of its event loop. */
import { parentPort, workerData } from "node:worker_threads";
import type { NewDeployment } from "./records.js";
import { openSqliteDatabase, type Synchronous } from "./sqlite-connection.js";
import { type CreateOutcome, DeploymentWrites, GroupCommit } from "./sqlite-deployment-writes.js";
import { UniqueViolation } from "./store.js";

/** What the thread is started with. */
export interface WriterThreadData {
  file: string;
  synchronous: Synchronous;
}

/** A request from the store; `id` pairs it with its reply. */
export type WriterRequest =
  | { kind: "create"; id: number; deployment: NewDeployment; nowUs: number }
  | { kind: "promote"; id: number; nowUs: number; batchSize: number }
  | { kind: "close"; id: number };

/** The reply to request `id`: a create's outcome, a sweep's count (or its error), or that the connection closed. */
export interface WriterReply {
  id: number;
  outcome?: CreateOutcome;
  count?: number;
}

/** An error as plain data: a thread's message cannot carry a class or a driver's own fields. */
function errorForMessage(error: unknown): { unique?: string; name: string; message: string; code?: string } {
  if (error instanceof UniqueViolation) return { unique: error.constraint, name: error.name, message: error.message };
  const { name, message, code } = error as { name?: string; message?: string; code?: unknown };
  return {
    name: name ?? "Error",
    message: message ?? String(error),
    ...(typeof code === "string" ? { code } : {}),
  };
}

if (parentPort) {
  const port = parentPort;
  const { file, synchronous } = workerData as WriterThreadData;
  const db = openSqliteDatabase(file, synchronous);
  const writes = new DeploymentWrites(db);
  const commits = new GroupCommit(writes);
  port.on("message", (request: WriterRequest) => {
    switch (request.kind) {
      case "create":
        commits.add(request.deployment, request.nowUs, (outcome) =>
          port.postMessage({
            id: request.id,
            outcome: "record" in outcome ? outcome : { error: errorForMessage(outcome.error) },
          } satisfies WriterReply),
        );
        return;
      case "promote":
        try {
          port.postMessage({
            id: request.id,
            count: writes.promoteReadyDeployments(request.nowUs, request.batchSize),
          } satisfies WriterReply);
        } catch (error) {
          port.postMessage({ id: request.id, outcome: { error: errorForMessage(error) } } satisfies WriterReply);
        }
        return;
      case "close":
        // What is queued is committed before the connection closes.
        commits.flushAll();
        db.close();
        // The store ends the thread once it has this reply.
        port.postMessage({ id: request.id } satisfies WriterReply);
        return;
    }
  });
}
