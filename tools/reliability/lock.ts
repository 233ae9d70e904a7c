/**
 * Lock scenario of `npm run reliability` (D-110): another process holds the SQLite database's write lock
 * for 6 s while lists and /healthz are sent one after the other and one create waits; the slowest list and
 * /healthz must stay under 0.5 s, /healthz must say "locked", and the create must answer 503 with
 * Retry-After (or 201 once the lock is free): the event loop never waits on the lock.
 */
import { join } from "node:path";
import { demo } from "../../contract/index.js";
import { probeDuringForeignLock } from "../../server/testing/foreign-lock.js";
import { startReference } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface LockOptions {
  holdMs: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** The target for the slowest list or /healthz while the lock is held elsewhere (D-452). */
const slowestAllowedMs = 500;

export async function lockScenario(options: LockOptions): Promise<ScenarioResult> {
  const sqlitePath = join(options.dataDir, "lock.sqlite");
  const server = await startReference({ name: "lock", logDir: options.logDir, sqlitePath });
  try {
    options.log(`lock: another process holds the write lock for ${options.holdMs} ms`);
    const probe = await probeDuringForeignLock({
      baseUrl: server.url,
      sqlitePath,
      apiKey: demo.acme.apiKey,
      holdMs: options.holdMs,
      createBody: {
        name: "during-the-lock",
        source: "internal_template",
        source_config: {},
        source_revision_config: {},
        secrets: [],
      },
    });
    const slowestList = Math.max(...probe.listMs);
    const slowestHealth = Math.max(...probe.healthMs);
    const failures: string[] = [];
    const missedTargets: string[] = [];
    if (probe.listMs.length === 0) failures.push("no list was answered while the lock was held");
    if (slowestList >= slowestAllowedMs)
      missedTargets.push(`slowest list ${slowestList.toFixed(0)} ms (target < ${slowestAllowedMs})`);
    if (slowestHealth >= slowestAllowedMs)
      missedTargets.push(`slowest /healthz ${slowestHealth.toFixed(0)} ms (target < ${slowestAllowedMs})`);
    if (probe.listStatuses.some((status) => status !== 200))
      failures.push(`list statuses ${[...new Set(probe.listStatuses)].join(", ")} (want 200)`);
    if (!probe.healthBodies.every((body) => body.includes('"database":"locked"')))
      failures.push(`/healthz said ${[...new Set(probe.healthBodies)].join(" | ")} (want "database":"locked")`);
    const { create } = probe;
    const createOk = (create.status === 503 && create.retryAfter !== null) || create.status === 201;
    if (!createOk) failures.push(`create answered ${create.status} (Retry-After ${create.retryAfter})`);
    const sorted = [...probe.listMs].sort((a, b) => a - b);
    return {
      name: "lock",
      failures,
      missedTargets,
      summary: [
        `${options.holdMs} ms foreign write lock: ${probe.listMs.length} lists (median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, slowest ${slowestList.toFixed(1)} ms), ${probe.healthMs.length} /healthz (slowest ${slowestHealth.toFixed(1)} ms, ${[...new Set(probe.healthBodies)].join(" | ")})`,
        `create during the lock: ${create.status}${create.retryAfter ? ` Retry-After ${create.retryAfter}` : ""} after ${create.ms.toFixed(0)} ms`,
      ],
    };
  } finally {
    await server.stop();
  }
}
