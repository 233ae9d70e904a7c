/** Simulated provisioning (D-53): AWAITING_DATABASE becomes READY with active_revision_id set READY_AFTER_MS after creation [D-11, D-12]. */
import type { Logger } from "pino";
import { errorSummary } from "./errors/error-summary.js";
import type { Store } from "./storage/store.js";

/**
 * Reads already derive READY from the stored ready time, so every process answers the same at
 * any moment; this sweep only writes the state down. It is idempotent and batch-limited, and the
 * PostgreSQL adapter skips rows another process is sweeping, so any number of processes may run it.
 */
export function startProvisioning(
  store: Store,
  logger: Logger,
  readyAfterMs: number,
  nowUs: () => number,
): () => Promise<void> {
  const intervalMs = Math.max(100, Math.min(1000, readyAfterMs));
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = async () => {
    try {
      while (!stopped && (await store.promoteReadyDeployments(nowUs(), 500)) === 500) {
        // A full batch: more may be waiting.
      }
    } catch (error) {
      if (!stopped) logger.warn({ err: errorSummary(error) }, "provisioning sweep failed; will retry");
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
