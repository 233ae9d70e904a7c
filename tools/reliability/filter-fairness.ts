/**
 * Filter fairness scenario of `npm run reliability` (D-283): one organization (Acme) holds `deployments`
 * deployments named `seed-<n>` and runs 8 clients of each filtered list that matches few or none of them
 * (`name_contains=zz`, `status=UNKNOWN`, `image_version=nope`, `name_contains=seed&status=UNKNOWN`), then of a
 * needle that matches all of them at a deep offset (`name_contains=seed-&offset=<deployments - 1,000>&limit=1`,
 * D-411), in turn, while
 * another organization (Globex) sends `limit=1` lists one after the other; Globex's p99 must stay under 50 ms
 * (D-311), and the CPU each answered Acme list cost is printed. On SQLite, and on PostgreSQL (a schema of its own
 * in TEST_DATABASE_URL) when it can be reached.
 */
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type CpuClock, onEachStore } from "../harness/each-store.js";
import { call, templateDeployment } from "../harness/http.js";
import { quantile } from "../harness/quantile.js";
import { runHeavyClients, trivialLatencies } from "./fairness.js";
import type { ScenarioResult } from "./scenario.js";

interface FilterFairnessOptions {
  /** Deployments seeded in Acme's default tenant. */
  deployments: number;
  /** How long each heavy query runs. */
  loadMs: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** The bound on Globex's p99 while Acme runs any of the queries. */
const allowedP99Ms = 50;

/** The queries Acme's clients send, each in turn: the sparse filters (D-311), then the dense needle deep in (D-411). */
function queries(deployments: number): string[] {
  return [
    ...["name_contains=zz", "status=UNKNOWN", "image_version=nope", "name_contains=seed&status=UNKNOWN"].map(
      (query) => `${query}&limit=20`,
    ),
    `name_contains=seed-&offset=${Math.max(deployments - 1_000, 0)}&limit=1`,
  ];
}

/** Creates `seed-0` … `seed-<count - 1>` from 20 clients; a 503 (a pool wait beyond its timeout) is tried again, at most 5 times. */
async function seed(server: ChildServer, count: number): Promise<void> {
  const acme = { url: server.url, apiKey: demo.acme.apiKey };
  let next = 0;
  const client = async () => {
    for (let n = next++; n < count; n = next++) {
      let status = 0;
      for (let attempt = 0; attempt < 5 && status !== 201; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        status = (await call(acme, "POST", "/v2/deployments", templateDeployment(`seed-${n}`))).status;
        if (status !== 201 && status !== 503) break;
      }
      if (status !== 201) throw new Error(`seeding seed-${n} answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: 20 }, client));
}

/** Runs each query's load against a seeded server; one summary line per query, failures and missed targets pushed. */
async function measure(
  server: ChildServer,
  store: string,
  cpu: CpuClock,
  options: FilterFairnessOptions,
  failures: string[],
  missedTargets: string[],
): Promise<string[]> {
  options.log(`filter-fairness: ${store}: seeding ${options.deployments} deployments`);
  const seeded = performance.now();
  await seed(server, options.deployments);
  const lines = [
    `${store}: ${options.deployments} deployments seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`,
  ];
  const baselineEnd = performance.now() + 1500;
  const baselineCpu = await cpu();
  const baseline = await trivialLatencies(server.url, () => performance.now() < baselineEnd);
  const globexCpuMs = ((await cpu()) - baselineCpu) / baseline.length;
  lines.push(
    `${store}: Globex limit=1 alone: p50 ${quantile(baseline, 0.5).toFixed(1)} ms, p99 ${quantile(baseline, 0.99).toFixed(1)} ms, CPU ${globexCpuMs.toFixed(2)} ms a request`,
  );
  for (const query of queries(options.deployments)) {
    const loadCpu = await cpu();
    const heavy = runHeavyClients(server.url, demo.acme.apiKey, `/v2/deployments?${query}`, options.loadMs);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const loadEnd = performance.now() + options.loadMs - 600;
    const loaded = await trivialLatencies(server.url, () => performance.now() < loadEnd);
    const { statuses, missingRetryAfter } = await heavy;
    const answered = statuses["200"] ?? 0;
    // What each answered Acme list cost, Globex's share (at its cost alone) taken out; a 429 costs next to nothing.
    const acmeCpuMs = ((await cpu()) - loadCpu - globexCpuMs * loaded.length) / Math.max(answered, 1);
    const p99 = quantile(loaded, 0.99);
    const counts = Object.entries(statuses)
      .map(([status, n]) => `${n} × ${status}`)
      .join(", ");
    lines.push(
      `${store}: Acme 8 × ${query}: Globex p50 ${quantile(loaded, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${quantile(loaded, 1).toFixed(1)} ms (${loaded.length} requests); Acme ${counts}, CPU ${acmeCpuMs.toFixed(1)} ms a 200`,
    );
    if (p99 >= allowedP99Ms)
      missedTargets.push(
        `${store}: Globex p99 ${p99.toFixed(0)} ms while Acme runs ${query} (target < ${allowedP99Ms})`,
      );
    const unexpected = Object.keys(statuses).filter((status) => status !== "200" && status !== "429");
    if (unexpected.length > 0) failures.push(`${store}: ${query} answered ${unexpected.join(", ")}`);
    if (missingRetryAfter > 0) failures.push(`${store}: ${missingRetryAfter} answers 429 without Retry-After`);
  }
  return lines;
}

export async function filterFairnessScenario(options: FilterFairnessOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const missedTargets: string[] = [];
  const summary = await onEachStore(
    { name: "filter-fairness", dataDir: options.dataDir, logDir: options.logDir },
    (server, store, cpu) => measure(server, store, cpu, options, failures, missedTargets),
  );
  return { name: "filter-fairness", failures, missedTargets, summary };
}
