/**
 * Waits that follow the machine (D-403): a start-up wait or a test timeout written for an idle machine, multiplied
 * by how loaded this one is (the 1-minute load average per core, 1 to 10), or by TIME_SCALE when it is set.
 */
import { availableParallelism, loadavg } from "node:os";

/** The factor waits are multiplied by: TIME_SCALE (a number of 1 or more) when set, else the load per core, 1 to 10. */
export function timeScale(env: Record<string, string | undefined> = process.env): number {
  const given = Number(env.TIME_SCALE);
  if (env.TIME_SCALE !== undefined && Number.isFinite(given) && given >= 1) return given;
  const perCore = (loadavg()[0] ?? 0) / Math.max(1, availableParallelism());
  return Math.min(10, Math.max(1, Math.ceil(perCore)));
}

/** `idleMs` (what the wait takes on an idle machine, with margin) scaled to this machine. */
export function scaledMs(idleMs: number): number {
  return Math.round(idleMs * timeScale());
}
