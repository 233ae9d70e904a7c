/**
 * Heavy pages scenario of `npm run reliability` (D-282): Acme (self-hosted) holds 100 deployments at the stored
 * bound (64 KiB of source_config, 100 secrets with 255-character names), so `limit=100` is the heaviest page one
 * organization can ask for; 18 clients read it concurrently while Globex sends `limit=1` lists. Holds: the
 * server's RSS stays under `allowedRssMiB`, Globex's p99 under 50 ms, every heavy answer 200 or 429 (D-350). On
 * SQLite, and on PostgreSQL (a schema of its own in TEST_DATABASE_URL) when it can be reached.
 */
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type CpuClock, onEachStore } from "../harness/each-store.js";
import { call } from "../harness/http.js";
import { quantile } from "../harness/quantile.js";
import { rssKiB } from "../harness/reference.js";
import { runHeavyClients, trivialLatencies } from "./fairness.js";
import type { ScenarioResult } from "./scenario.js";

interface HeavyPagesOptions {
  loadMs: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

/** The RSS the server stays under while 18 clients read the heaviest page (measured 2026-11-25: see docs/limits-and-hardening.md). */
const allowedRssMiB = 512;
const allowedP99Ms = 50;
const readers = 18;

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
  const summary = await onEachStore(
    { name: "heavy-pages", dataDir: options.dataDir, logDir: options.logDir, env: { HOSTING: "self_hosted" } },
    (server, store, cpu) => measure(server, store, cpu, options, failures),
  );
  return { name: "heavy-pages", failures, summary };
}

/** Fills Acme with the heaviest page, then reads it from 18 clients while Globex lists; summary lines, failures pushed. */
async function measure(
  server: ChildServer,
  store: string,
  cpu: CpuClock,
  options: HeavyPagesOptions,
  failures: string[],
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

  const rssBefore = (rssKiB(server.pid) ?? 0) / 1024;
  let rssPeak = rssBefore;
  const cpuBefore = await cpu();
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, (rssKiB(server.pid) ?? 0) / 1024);
  }, 50);
  const heavy = runHeavyClients(server.url, acme.apiKey, "/v2/deployments?limit=100", options.loadMs, readers);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const loadEnd = performance.now() + options.loadMs - 600;
  let loaded: number[] = [];
  try {
    loaded = await trivialLatencies(server.url, () => performance.now() < loadEnd);
  } catch (error) {
    failures.push(`${store}: a Globex list failed under the load: ${(error as Error).message}`);
  }
  const { statuses, missingRetryAfter } = await heavy;
  clearInterval(sampler);
  // The server's CPU (and its PostgreSQL backends') for each heavy answer, Globex's light lists included (a fraction of a millisecond each).
  const cpuPerPageMs = ((await cpu()) - cpuBefore) / Math.max(statuses["200"] ?? 0, 1);

  const p99 = quantile(loaded, 0.99);
  if (rssPeak >= allowedRssMiB)
    failures.push(`${store}: peak RSS ${rssPeak.toFixed(0)} MiB (allowed < ${allowedRssMiB})`);
  if (p99 >= allowedP99Ms) failures.push(`${store}: Globex p99 ${p99.toFixed(0)} ms (allowed < ${allowedP99Ms})`);
  const unexpected = Object.keys(statuses).filter((status) => status !== "200" && status !== "429");
  if (unexpected.length > 0) failures.push(`${store}: heavy pages answered ${unexpected.join(", ")}`);
  if (missingRetryAfter > 0) failures.push(`${store}: ${missingRetryAfter} answers 429 without Retry-After`);
  return [
    `${store}: the heaviest page (limit=100 at the D-282 bound): ${(pageBytes / 1e6).toFixed(2)} MB`,
    `${store}: ${readers} readers for ${(options.loadMs / 1000).toFixed(0)} s: ${Object.entries(statuses)
      .map(([status, n]) => `${n} × ${status}`)
      .join(
        ", ",
      )}; RSS ${rssBefore.toFixed(0)} MiB before, peak ${rssPeak.toFixed(0)} MiB; server CPU ${cpuPerPageMs.toFixed(0)} ms a page`,
    `${store}: Globex limit=1 meanwhile: ${loaded.length} requests, p50 ${quantile(loaded, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
  ];
}
