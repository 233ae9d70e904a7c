/**
 * Heavy pages scenario of `npm run reliability` (D-282): Acme (self-hosted) holds 100 deployments at the stored
 * bound (64 KiB of source_config, 100 secrets with 255-character names), so `limit=100` is the heaviest page one
 * organization can ask for; 18 clients read it concurrently while Globex sends `limit=1` lists, then 60 clients
 * ask for it and never read it (D-410) while Globex lists again. Holds, in each phase: the server's RSS stays
 * under `allowedRssMiB`, every heavy answer 200 or 429 (D-350); Globex's p99 under 50 ms is a target. With response
 * validation off (as in production) and on (as `npm start` runs), on SQLite, and on PostgreSQL (a schema of its
 * own in TEST_DATABASE_URL) when it can be reached. A missed target is printed, not failed (D-452).
 */
import { loadavg } from "node:os";
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type CpuClock, onEachStore } from "../harness/each-store.js";
import { call } from "../harness/http.js";
import { quantile } from "../harness/quantile.js";
import { rssKiB } from "../harness/reference.js";
import { runHeavyClients, trivialLatencies } from "./fairness.js";
import { openNonReaders } from "./non-readers.js";
import type { ScenarioResult } from "./scenario.js";

interface HeavyPagesOptions {
  loadMs: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** The RSS the server stays under while 18 clients read the heaviest page, or 60 never read it (see docs/limits-and-hardening.md). */
const allowedRssMiB = 512;
const allowedP99Ms = 50;
const readers = 18;
const nonReaders = 60;

/** An external_container create at the D-282 bound: its labels fill source_config up to 64 KiB with the rest. */
function heaviestDeployment(name: string): Record<string, unknown> {
  const body = {
    name,
    source: "external_container",
    source_config: { custom_url: "https://heavy.example", resource_spec: { labels: { k: "" } } },
    source_revision_config: { image_uri: "registry.example/heavy:1" },
    secrets: Array.from({ length: 100 }, (_, i) => ({ name: `S${String(i).padStart(254, "x")}`, value: "v" })),
  };
  const used =
    Buffer.byteLength(JSON.stringify(body.source_config)) +
    Buffer.byteLength(JSON.stringify(body.source_revision_config));
  body.source_config.resource_spec.labels.k = "x".repeat(64 * 1024 - used);
  return body;
}

export async function heavyPagesScenario(options: HeavyPagesOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const missedTargets: string[] = [];
  const summary: string[] = [];
  // Off as in production; on as `npm start` runs (VALIDATE_RESPONSES defaults to true outside production).
  for (const validateResponses of [false, true]) {
    const setting = `validation ${validateResponses ? "on" : "off"}`;
    const lines = await onEachStore(
      {
        name: `heavy-pages-${validateResponses ? "checked" : "unchecked"}`,
        dataDir: options.dataDir,
        logDir: options.logDir,
        env: { HOSTING: "self_hosted" },
        validateResponses,
      },
      (server, store, cpu) => measure(server, `${store}, ${setting}`, cpu, options, failures, missedTargets),
    );
    summary.push(...lines);
  }
  return { name: "heavy-pages", failures, missedTargets, summary };
}

/** Samples the server's RSS every 50 ms until stopped; the peak in MiB. */
function rssSampler(pid: number): { before: number; stop(): number } {
  const before = (rssKiB(pid) ?? 0) / 1024;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, (rssKiB(pid) ?? 0) / 1024);
  }, 50);
  return {
    before,
    stop() {
      clearInterval(timer);
      return Math.max(peak, (rssKiB(pid) ?? 0) / 1024);
    },
  };
}

/** Globex's `limit=1` lists one after the other for `ms` (from 300 ms in, until 300 ms before its end); failures pushed. */
async function globexDuring(url: string, ms: number, failures: string[], store: string): Promise<number[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const end = performance.now() + ms - 600;
  try {
    return await trivialLatencies(url, () => performance.now() < end);
  } catch (error) {
    failures.push(`${store}: a Globex list failed under the load: ${(error as Error).message}`);
    return [];
  }
}

/** The figures of one phase: a failure when the RSS bound is passed, a missed target when the p99 one is. */
function judged(
  store: string,
  phase: string,
  rssPeak: number,
  latencies: number[],
  failures: string[],
  missedTargets: string[],
): string {
  const p99 = quantile(latencies, 0.99);
  if (rssPeak >= allowedRssMiB)
    failures.push(`${store}: ${phase}: peak RSS ${rssPeak.toFixed(0)} MiB (allowed < ${allowedRssMiB})`);
  if (p99 >= allowedP99Ms)
    missedTargets.push(`${store}: ${phase}: Globex p99 ${p99.toFixed(0)} ms (target < ${allowedP99Ms})`);
  return `Globex limit=1 meanwhile: ${latencies.length} requests, p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; load average ${loadavg()[0]!.toFixed(1)}`;
}

/** Fills Acme with the heaviest page, then reads it from 18 clients while Globex lists; summary lines, failures pushed. */
async function measure(
  server: ChildServer,
  store: string,
  cpu: CpuClock,
  options: HeavyPagesOptions,
  failures: string[],
  missedTargets: string[],
): Promise<string[]> {
  const acme = { url: server.url, apiKey: demo.acme.apiKey };
  options.log(`heavy-pages: ${store}: creating 100 deployments at the stored bound`);
  for (let i = 0; i < 100; i++) {
    const created = await call(acme, "POST", "/v2/deployments", heaviestDeployment(`heavy-${i}`));
    if (created.status !== 201) throw new Error(`${store}: a create at the bound answered ${created.status}`);
  }
  const over = heaviestDeployment("heavy-over");
  (over.source_revision_config as Record<string, string>).image_uri += "x";
  const refused = await call<{ errors?: Array<{ pointer: string }> }>(acme, "POST", "/v2/deployments", over);
  if (refused.status !== 422 || refused.body.errors?.[0]?.pointer !== "/source_config")
    failures.push(
      `${store}: one byte over the bound answered ${refused.status} ${JSON.stringify(refused.body).slice(0, 200)}`,
    );
  const page = await fetch(new URL("/v2/deployments?limit=100", server.url), {
    headers: { "x-api-key": acme.apiKey },
  });
  const pageText = await page.text();
  const pageBytes = Buffer.byteLength(pageText);
  const parsed = JSON.parse(pageText) as { resources: Array<{ name: string }>; offset: number };
  const names = parsed.resources.map((deployment) => deployment.name);
  if (names.join() !== Array.from({ length: 100 }, (_, i) => `heavy-${99 - i}`).join() || parsed.offset !== 100)
    failures.push(`${store}: the heaviest page is not the 100 deployments newest first with offset 100`);

  const reading = rssSampler(server.pid);
  const cpuBefore = await cpu();
  const heavy = runHeavyClients(server.url, acme.apiKey, "/v2/deployments?limit=100", options.loadMs, readers);
  const loaded = await globexDuring(server.url, options.loadMs, failures, store);
  const { statuses, missingRetryAfter } = await heavy;
  const readingPeak = reading.stop();
  // The server's CPU (and its PostgreSQL backends') for each heavy answer, Globex's light lists included (a fraction of a millisecond each).
  const cpuPerPageMs = ((await cpu()) - cpuBefore) / Math.max(statuses["200"] ?? 0, 1);
  const unexpected = Object.keys(statuses).filter((status) => status !== "200" && status !== "429");
  if (unexpected.length > 0) failures.push(`${store}: heavy pages answered ${unexpected.join(", ")}`);
  if (missingRetryAfter > 0) failures.push(`${store}: ${missingRetryAfter} answers 429 without Retry-After`);
  const readingLine = judged(store, "readers", readingPeak, loaded, failures, missedTargets);

  // Clients that never read (D-410): each page holds its slot and at most a slice or two until the stall cut.
  const idle = rssSampler(server.pid);
  const stalled = openNonReaders(server.url, acme.apiKey, "/v2/deployments?limit=100", nonReaders);
  let idleLoaded: number[];
  let idleStatuses: Record<string, number>;
  try {
    idleLoaded = await globexDuring(server.url, options.loadMs, failures, store);
    idleStatuses = stalled.statuses();
  } finally {
    stalled.close();
  }
  const idlePeak = idle.stop();
  const idleUnexpected = Object.keys(idleStatuses).filter((status) => !["200", "429", "none"].includes(status));
  if (idleUnexpected.length > 0) failures.push(`${store}: non-readers were answered ${idleUnexpected.join(", ")}`);
  const idleLine = judged(store, "non-readers", idlePeak, idleLoaded, failures, missedTargets);
  const counted = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${n} × ${status}`)
      .join(", ");
  return [
    `${store}: the heaviest page (limit=100 at the D-282 bound): ${(pageBytes / 1e6).toFixed(2)} MB`,
    `${store}: ${readers} readers for ${(options.loadMs / 1000).toFixed(0)} s: ${counted(statuses)}; RSS ${reading.before.toFixed(0)} MiB before, peak ${readingPeak.toFixed(0)} MiB; server CPU ${cpuPerPageMs.toFixed(0)} ms a page; ${readingLine}`,
    `${store}: ${nonReaders} clients that never read, for ${(options.loadMs / 1000).toFixed(0)} s: ${counted(idleStatuses)} ("none": waiting in line, no answer yet), ${stalled.closedByServer()} cut; RSS ${idle.before.toFixed(0)} MiB before, peak ${idlePeak.toFixed(0)} MiB; ${idleLine}`,
  ];
}
