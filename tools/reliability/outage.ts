/**
 * Outage scenario of `npm run reliability` (D-81, D-280): a PostgreSQL cluster of the scenario's own (initdb in a
 * scratch folder, its own port) is stopped `-m fast`, then `-m immediate`, while clients create deployments, and
 * started again. Holds: the server process stays alive throughout; every answer is 201 or 503 with Retry-After
 * (never 500); /healthz says 503 while PostgreSQL is away; creates succeed again within `allowedRecoveryMs` of
 * PostgreSQL's start; every acknowledged create is listed exactly once.
 */
import { demo } from "../../contract/index.js";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
  type StopMode,
  startPrivatePostgres,
} from "../../server/testing/private-postgres.js";
import { call, templateDeployment, walkDeployments } from "../harness/http.js";
import { startReference } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface OutageOptions {
  /** Concurrent create clients. */
  clients: number;
  /** How long PostgreSQL stays stopped each time. */
  downMs: number;
  logDir: string;
  log(message: string): void;
}

/** From PostgreSQL's start (pg_ctl returned) to the first create answered 201. */
const allowedRecoveryMs = 5_000;
const stopModes: StopMode[] = ["fast", "immediate"];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function outageScenario(options: OutageOptions): Promise<ScenarioResult> {
  if (!privatePostgresAvailable())
    return { name: "outage", failures: [], summary: [], skipped: "initdb and pg_ctl not found" };
  const postgres: PrivatePostgres = await startPrivatePostgres();
  const failures: string[] = [];
  const summary: string[] = [];
  try {
    const server = await startReference({ name: "outage", logDir: options.logDir, databaseUrl: postgres.url });
    let exited: number | string | undefined;
    server.exited.then((code) => {
      exited = code;
    });
    try {
      const acme = { url: server.url, apiKey: demo.acme.apiKey };
      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      let missingRetryAfter = 0;
      let lastCreatedAt = 0;
      let loading = true;
      const client = async (index: number) => {
        // Bounded: at most 100,000 creates per client.
        for (let i = 0; loading && i < 100_000; i++) {
          let status: number;
          try {
            const answer = await call<{ id: string }>(
              acme,
              "POST",
              "/v2/deployments",
              templateDeployment(`outage-${index}-${i}`),
            );
            status = answer.status;
            if (status === 201) {
              acknowledged.push(answer.body.id);
              lastCreatedAt = performance.now();
            }
            if (status === 503 && answer.contentType.includes("problem") === false) missingRetryAfter += 1;
          } catch {
            // The server refused the connection: the process is gone (counted below from `exited`).
            status = 0;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 201) await pause(50);
        }
      };
      const healthDuringOutage = new Set<number>();
      const load = Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
      for (const mode of stopModes) {
        await pause(1_000);
        options.log(`outage: stopping PostgreSQL -m ${mode} under ${options.clients} create clients`);
        await postgres.stop(mode);
        const downUntil = performance.now() + options.downMs;
        while (performance.now() < downUntil && exited === undefined) {
          try {
            healthDuringOutage.add((await fetch(new URL("/healthz", server.url))).status);
            const list = await fetch(new URL("/v2/deployments", server.url), { headers: { "x-api-key": acme.apiKey } });
            await list.arrayBuffer();
            if (list.status === 503 && !list.headers.get("retry-after")) missingRetryAfter += 1;
          } catch {
            // Refused: the process is gone, reported from `exited`.
          }
          await pause(200);
        }
        await postgres.start();
        const startedAt = performance.now();
        while (lastCreatedAt < startedAt && performance.now() - startedAt < allowedRecoveryMs * 2) await pause(20);
        const recoveryMs = lastCreatedAt - startedAt;
        summary.push(
          lastCreatedAt < startedAt
            ? `-m ${mode}: no create succeeded within ${allowedRecoveryMs * 2} ms of PostgreSQL's start`
            : `-m ${mode}: PostgreSQL down ${options.downMs} ms; the first create succeeded ${recoveryMs.toFixed(0)} ms after it started again`,
        );
        if (lastCreatedAt < startedAt || recoveryMs > allowedRecoveryMs)
          failures.push(`-m ${mode}: creates did not succeed again within ${allowedRecoveryMs} ms`);
      }
      await pause(1_000);
      loading = false;
      await load;

      if (exited !== undefined) failures.push(`the server process ended (${exited})`);
      const unexpected = [...statuses.keys()].filter((status) => status !== 201 && status !== 503);
      if (unexpected.length > 0)
        failures.push(`creates answered ${unexpected.map((s) => `${s} × ${statuses.get(s)}`).join(", ")}`);
      if (missingRetryAfter > 0) failures.push(`${missingRetryAfter} answers 503 without Retry-After or problem type`);
      if (!healthDuringOutage.has(503))
        failures.push(`/healthz never said 503 while PostgreSQL was stopped (${[...healthDuringOutage].join(", ")})`);
      const listed = new Map<string, number>();
      if (exited === undefined) {
        const walk = await walkDeployments(acme, { limit: 100 });
        for (const deployment of walk.deployments) listed.set(deployment.id, (listed.get(deployment.id) ?? 0) + 1);
        const missing = acknowledged.filter((id) => !listed.has(id));
        const twice = [...listed].filter(([, count]) => count > 1);
        if (missing.length > 0) failures.push(`${missing.length} acknowledged creates are not listed`);
        if (twice.length > 0) failures.push(`${twice.length} deployments listed more than once`);
      }
      summary.unshift(
        `${options.clients} create clients: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(", ")}; ${acknowledged.length} acknowledged, ${listed.size} listed; process ${exited === undefined ? "alive throughout" : `ended (${exited})`}`,
      );
    } finally {
      if (exited === undefined) await server.stop();
    }
  } finally {
    await postgres.destroy();
  }
  return { name: "outage", failures, summary };
}
