/** Writes that never wait on the event loop for a SQLite lock held elsewhere (D-110): tried at once, retried off the loop, given up as unavailable. */

/** How long a write keeps retrying before it is answered 503 (D-81, D-110). */
export const writeLockWaitMs = 2000;
/** Whether an error is SQLite's "database or disk is full", or a write or sync the file system refused (D-280: 503, not 500). */
export function isSqliteDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(FULL|IOERR)/.test(code);
}

/** The first pause between tries; each later pause doubles, up to `maxRetryPauseMs`. */
const firstRetryPauseMs = 5;
const maxRetryPauseMs = 200;

/** Whether an error is SQLite's "database is locked" (another connection holds the write lock). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}

/** The pause before try number `attempt` (1-based), doubling from 5 ms up to 200 ms. */
export function retryPauseMs(attempt: number): number {
  return Math.min(maxRetryPauseMs, firstRetryPauseMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Runs a synchronous write; while SQLite answers busy it tries again after a timer (the event loop serves
 * other requests meanwhile), and after `waitMs` it rethrows the busy error, which the server answers 503.
 */
export async function retryWhileBusy<T>(write: () => T, waitMs = writeLockWaitMs): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return write();
    } catch (error) {
      if (!isSqliteBusy(error) || performance.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, retryPauseMs(attempt)));
  }
}
