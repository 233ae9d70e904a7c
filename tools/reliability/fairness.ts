/**
 * Fairness scenario of `npm run reliability` (D-113): one organization (Acme) runs its heaviest allowed list
 * (`name_contains` + `status`, offset 5,600 of 5,700, limit 100) from 8 concurrent clients while another
 * (Globex) sends trivial lists one after the other; Globex's median and p99 must stay under their bounds, and every
 * heavy request must be answered 200 or 429 with Retry-After.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { demo } from "../../contract/index.js";
import { call, templateDeployment } from "../harness/http.js";
import { quantile } from "../harness/quantile.js";
import { startReference } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface FairnessOptions {
  /** Deployments seeded in Acme's default tenant. */
  deployments: number;
  /** How long the heavy load runs. */
  loadMs: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** The targets for the other organization's median and p99 while the heavy load runs (before D-113: 285-386 and 782-1,403 ms; D-452). */
const allowedP50Ms = 150;
const allowedP99Ms = 500;
const heavyClients = Number(process.env.FAIRNESS_CLIENTS ?? 8);

/** Milliseconds of each of Globex's trivial lists, sent one after the other until `until()` is false. */
export async function trivialLatencies(url: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const globex = { url, apiKey: demo.globex.apiKey };
  // Bounded: at most 100,000 requests.
  while (until() && latencies.length < 100_000) {
    const started = performance.now();
    const answer = await call(globex, "GET", "/v2/deployments?limit=1");
    if (answer.status !== 200) throw new Error(`Globex's list answered ${answer.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** The heavy clients: a child Node process looping on `path` from `clients` connections (default `heavyClients`) for `ms`; their answers counted by status. */
const heavySource = `
const [url, key, path, clients, ms] = process.argv.slice(1);
const end = Date.now() + Number(ms);
const statuses = {};
let missingRetryAfter = 0;
const client = async () => {
  while (Date.now() < end) {
    const response = await fetch(new URL(path, url), { headers: { "x-api-key": key } });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status === 429) {
      if (!response.headers.get("retry-after")) missingRetryAfter += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
};
Promise.all(Array.from({ length: Number(clients) }, client)).then(() =>
  process.stdout.write(JSON.stringify({ statuses, missingRetryAfter })),
);
`;

export function runHeavyClients(
  url: string,
  apiKey: string,
  path: string,
  ms: number,
  clients = heavyClients,
): Promise<{ statuses: Record<string, number>; missingRetryAfter: number }> {
  const child = spawn(process.execPath, ["-e", heavySource, url, apiKey, path, String(clients), String(ms)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`the heavy clients exited with ${code}`)),
    ),
  );
}

export async function fairnessScenario(options: FairnessOptions): Promise<ScenarioResult> {
  const server = await startReference({
    name: "fairness",
    logDir: options.logDir,
    sqlitePath: join(options.dataDir, "fairness.sqlite"),
  });
  try {
    const acme = { url: server.url, apiKey: demo.acme.apiKey };
    options.log(`fairness: seeding ${options.deployments} deployments`);
    for (let start = 0; start < options.deployments; start += 50) {
      const batch = Array.from({ length: Math.min(50, options.deployments - start) }, (_, i) =>
        call(acme, "POST", "/v2/deployments", templateDeployment(`fair-${start + i}`)),
      );
      for (const answer of await Promise.all(batch))
        if (answer.status !== 201) throw new Error(`seeding answered ${answer.status}`);
    }
    // READY after 100 ms (READY_AFTER_MS of the reference run): the heavy filter matches them all.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const heavyPath = `/v2/deployments?name_contains=fair&status=READY&offset=${options.deployments - 100}&limit=100`;
    const probe = await call<{ resources: unknown[] }>(acme, "GET", heavyPath);
    const failures: string[] = [];
    const missedTargets: string[] = [];
    if (probe.status !== 200 || probe.body.resources.length !== 100)
      failures.push(`the heavy page answered ${probe.status} with ${probe.body.resources?.length} deployments`);

    const baselineEnd = performance.now() + 2000;
    const baseline = await trivialLatencies(server.url, () => performance.now() < baselineEnd);

    // The heavy clients run in a process of their own, as another organization's clients would: this
    // process then times only the other organization's requests.
    const heavy = runHeavyClients(server.url, acme.apiKey, heavyPath, options.loadMs);
    // Let the heavy clients start before timing the other organization.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const loadEnd = performance.now() + options.loadMs - 600;
    const loaded = await trivialLatencies(server.url, () => performance.now() < loadEnd);
    const { statuses: heavyStatuses, missingRetryAfter } = await heavy;

    const p = (values: number[], q: number) => quantile(values, q).toFixed(1);
    const loadedP99 = quantile(loaded, 0.99);
    const loadedP50 = quantile(loaded, 0.5);
    if (loadedP50 >= allowedP50Ms)
      missedTargets.push(`Globex median ${loadedP50.toFixed(0)} ms under Acme's heavy load (target < ${allowedP50Ms})`);
    if (loadedP99 >= allowedP99Ms)
      missedTargets.push(`Globex p99 ${loadedP99.toFixed(0)} ms under Acme's heavy load (target < ${allowedP99Ms})`);
    const unexpected = Object.keys(heavyStatuses).filter((status) => status !== "200" && status !== "429");
    if (unexpected.length > 0) failures.push(`heavy requests answered ${unexpected.join(", ")}`);
    if (missingRetryAfter > 0) failures.push(`${missingRetryAfter} answers 429 without Retry-After`);
    const heavyCounts = Object.entries(heavyStatuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(", ");
    return {
      name: "fairness",
      failures,
      missedTargets,
      summary: [
        `Globex GET /v2/deployments?limit=1 alone: ${baseline.length} requests, p50 ${p(baseline, 0.5)} ms, p99 ${p(baseline, 0.99)} ms`,
        `while Acme runs ${heavyClients} clients of name_contains=fair&status=READY&offset=${options.deployments - 100}&limit=100 on ${options.deployments} deployments: ${loaded.length} requests, p50 ${p(loaded, 0.5)} ms, p99 ${p(loaded, 0.99)} ms, max ${p(loaded, 1)} ms`,
        `Acme's heavy requests in ${(options.loadMs / 1000).toFixed(0)} s: ${heavyCounts}`,
      ],
    };
  } finally {
    await server.stop();
  }
}
