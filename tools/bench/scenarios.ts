/**
 * The rows of `npm run bench`: baselines, the reference server on SQLite (seeded, list
 * variants, create, providers, validation on and off, page walk, start-up, memory), PostgreSQL, Prism.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { demo, documentPath, operation } from "../../contract/index.js";
import type { DeploymentList } from "../../generated/client.js";
import { freePort } from "../../mock/src/free-port.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { onPostgres } from "../harness/each-store.js";
import { type Caller, call, templateDeployment, walkDeployments } from "../harness/http.js";
import { repoRoot, rssKiB, startReference } from "../harness/reference.js";
import { runHeavyClients } from "../reliability/fairness.js";
import type { BenchConfig } from "./config.js";
import { type LoadFigures, type LoadOptions, runLoad } from "./load.js";
import { seedDeployments } from "./seed.js";
import type { Extras, Row, RowId } from "./table.js";
import { median } from "./table.js";
import { rssParts, spawnTarget, tsNode } from "./targets.js";

export interface BenchContext {
  config: BenchConfig;
  /** Folder for the SQLite files of this run. */
  dataDir: string;
  /** Folder for the targets' logs. */
  logDir: string;
  rows: Row[];
  extras: Extras;
  log(message: string): void;
}

function loadOptions(ctx: BenchContext, url: string, path: string, extra: Partial<LoadOptions> = {}): LoadOptions {
  return {
    url,
    path,
    connections: ctx.config.connections,
    durationS: ctx.config.rowSeconds,
    warmupS: ctx.config.warmupSeconds,
    ...extra,
  };
}

function addRow(ctx: BenchContext, id: RowId, label: string, figures: LoadFigures | undefined, note?: string): void {
  ctx.rows.push({ id, label, figures, ...(note ? { note } : {}), ...(figures ? { load1m: loadavg()[0] } : {}) });
  const f = figures;
  ctx.log(
    f
      ? `${label}: ${f.requestsPerS.toFixed(0)} req/s${f.cpuUsPerRequest !== undefined ? `, ${f.cpuUsPerRequest.toFixed(0)} µs server CPU/request` : ""}, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.non2xx + f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors ${JSON.stringify(f.statusCounts)}` : ""}`
      : `${label}: skipped (${note})`,
  );
}

/** Marks rows skipped when their group failed, so the table still shows them. */
export function skipRows(ctx: BenchContext, rows: [RowId, string][], reason: string): void {
  for (const [id, label] of rows) if (!ctx.rows.some((row) => row.id === id)) addRow(ctx, id, label, undefined, reason);
}

/** Bare node:http and bare Koa + @koa/router answering a constant JSON body. */
export async function baselineRows(ctx: BenchContext): Promise<void> {
  for (const [id, label, file] of [
    ["bare-http", "bare node:http, constant JSON", "tools/bench/targets/bare-http.ts"],
    ["bare-koa", "bare Koa + @koa/router, same body", "tools/bench/targets/bare-koa.ts"],
  ] as const) {
    const { command, args } = tsNode(file);
    const target = await spawnTarget({
      name: id,
      command,
      args,
      env: { PORT: "0", NODE_ENV: "production" },
      logFile: join(ctx.logDir, `${id}.log`),
      ready: { kind: "listening-line" },
    });
    try {
      addRow(
        ctx,
        id,
        label,
        await runLoad(loadOptions(ctx, target.url, "/v2/deployments?limit=20&offset=0", { pid: target.pid })),
      );
    } finally {
      await target.stop();
    }
  }
}

/** Start-up of the stateful mock (the sandbox, D-79) to its first answer: spawn, listening line, a list in a new session. */
export async function statefulMockStartup(ctx: BenchContext): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < ctx.config.startups; i++) {
    const started = performance.now();
    const target = await spawnTarget({
      name: `stateful-mock-${i}`,
      command: process.execPath,
      args: ["--import", "tsx", join(repoRoot, "mock", "src", "cli.ts"), "--stateful", "--port", "0"],
      logFile: join(ctx.logDir, `stateful-mock-${i}.log`),
      ready: { kind: "listening-line" },
    });
    try {
      const answer = await call({ url: target.url, apiKey: `bench-${i}` }, "GET", operation("listDeployments").path);
      samples.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`first answer was ${answer.status}`);
    } finally {
      await target.stop();
    }
  }
  ctx.extras.statefulMockStartup = {
    samplesMs: samples,
    medianMs: median(samples),
    note: "node --import tsx mock/src/cli.ts --stateful, timed from spawn to the answer of a first list in a new session",
  };
  ctx.log(
    `stateful mock start-up to first answer: median ${median(samples).toFixed(0)} ms (${samples.map((x) => x.toFixed(0)).join(", ")})`,
  );
}

/** The Prism mock of generated/openapi.json on the same list call. */
export async function prismRow(ctx: BenchContext): Promise<void> {
  const port = await freePort();
  const target = await spawnTarget({
    name: "prism",
    command: join(repoRoot, "node_modules", ".bin", "prism"),
    args: ["mock", "-h", "127.0.0.1", "-p", String(port), documentPath],
    logFile: join(ctx.logDir, "prism.log"),
    ready: { kind: "port", port },
    timeoutMs: 60_000,
  });
  try {
    const path = "/v2/deployments?limit=20&offset=0";
    const sample = await call<DeploymentList>({ url: target.url, apiKey: demo.acme.apiKey }, "GET", path);
    const note =
      sample.status === 200
        ? `static example, ${sample.body.resources.length} items`
        : `sample answered ${sample.status}`;
    addRow(
      ctx,
      "prism-list20-off0",
      "Prism mock: GET /v2/deployments limit=20",
      await runLoad(
        loadOptions(ctx, target.url, path, { headers: { "x-api-key": demo.acme.apiKey }, pid: target.pid }),
      ),
      note,
    );
  } finally {
    await target.stop();
  }
}

/** Describes what a list call returns before it is measured (proves a deep offset really returns rows). */
async function listNote(caller: Caller, path: string): Promise<string> {
  const sample = await call<DeploymentList>(caller, "GET", path);
  if (sample.status !== 200) return `sample answered ${sample.status}`;
  return `${sample.body.resources.length} items`;
}

function keyHeaders(caller: Caller): Record<string, string> {
  const headers: Record<string, string> = { "x-api-key": caller.apiKey };
  if (caller.tenantId) headers["x-tenant-id"] = caller.tenantId;
  return headers;
}

/** Looks for heap figures in a /healthz answer (a server may expose them outside the contract). */
function heapUsedFromHealth(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (/heap_?used/i.test(key) && typeof value === "number") return value;
    const nested = heapUsedFromHealth(value);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

const referenceListRows = (deep: number): [RowId, string, string][] => [
  ["list20-off0", "reference SQLite: list limit=20 offset=0", "limit=20&offset=0"],
  ["list100-off0", "reference SQLite: list limit=100 offset=0", "limit=100&offset=0"],
  ["list20-deep", `reference SQLite: list limit=20 offset=${deep}`, `limit=20&offset=${deep}`],
  ["list100-deep", `reference SQLite: list limit=100 offset=${deep}`, `limit=100&offset=${deep}`],
];

/** The same-bytes baselines: bare Koa answering the page a reference list row answered, captured just before. */
const sameBytesRows: { id: RowId; of: RowId; label: string }[] = [
  { id: "koa-bytes-list20", of: "list20-off0", label: "bare Koa + @koa/router, the list limit=20 page's bytes" },
  { id: "koa-bytes-list100", of: "list100-off0", label: "bare Koa + @koa/router, the list limit=100 page's bytes" },
];

/** Fetches one page of the reference server and writes its body bytes to a file. */
async function capturePage(caller: Caller, path: string, file: string): Promise<{ file: string; bytes: number }> {
  const response = await fetch(new URL(path, caller.url), {
    headers: { accept: "application/json", ...keyHeaders(caller) },
  });
  if (response.status !== 200) throw new Error(`capturing ${path}: HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  writeFileSync(file, body);
  return { file, bytes: body.length };
}

/** Bare Koa answering a captured page, measured like the reference row it belongs to. */
async function sameBytesRow(
  ctx: BenchContext,
  row: (typeof sameBytesRows)[number],
  page: { file: string; bytes: number },
): Promise<void> {
  const { command, args } = tsNode("tools/bench/targets/bare-koa.ts");
  const target = await spawnTarget({
    name: row.id,
    command,
    args,
    env: { PORT: "0", BODY_FILE: page.file, NODE_ENV: "production" },
    logFile: join(ctx.logDir, `${row.id}.log`),
    ready: { kind: "listening-line" },
  });
  try {
    addRow(
      ctx,
      row.id,
      row.label,
      await runLoad(loadOptions(ctx, target.url, "/v2/deployments", { pid: target.pid })),
      `${page.bytes} bytes`,
    );
  } finally {
    await target.stop();
  }
}

/** Every row label of the reference group, for skipping them all when the server is missing. */
export function referenceRowLabels(config: BenchConfig): [RowId, string][] {
  const deep = config.largeTenantDeployments - 100;
  return [
    ["seed-create", "reference SQLite: POST /v2/deployments (seeding)"],
    ...referenceListRows(deep).map(([id, label]) => [id, label] as [RowId, string]),
    ...sameBytesRows.map((row) => [row.id, row.label] as [RowId, string]),
    ["name-contains", "reference SQLite: list name_contains"],
    ["name-status", "reference SQLite: list name_contains + status"],
    ["status-ids", "reference SQLite: list status + deployment_ids"],
    ["fairness-sparse", "reference SQLite: globex list limit=1 while acme runs 8 × name_contains=zz"],
    ["providers", "reference SQLite: GET /v2/auth/providers"],
    ["create", "reference SQLite: POST /v2/deployments"],
    ["list20-off0-validated", "reference SQLite, validation on: list limit=20"],
    ["list100-off0-validated", "reference SQLite, validation on: list limit=100"],
  ];
}

/**
 * Another organization's light list, one request at a time, while 8 Acme clients in a process of their own read a
 * filter that matches none of its tenant (D-283, D-311): the p99 of the row is the fairness figure.
 */
async function fairnessRow(
  ctx: BenchContext,
  server: ChildServer,
  label: string,
  count: (figures: LoadFigures) => LoadFigures,
): Promise<void> {
  const { config } = ctx;
  const heavyMs = (config.rowSeconds + config.warmupSeconds) * 1000 + 1000;
  const heavy = runHeavyClients(server.url, demo.acme.apiKey, "/v2/deployments?name_contains=zz&limit=20", heavyMs);
  await sleep(300);
  const globexHeaders = keyHeaders({ url: server.url, apiKey: demo.globex.apiKey });
  const figures = count(
    await runLoad(loadOptions(ctx, server.url, "/v2/deployments?limit=1", { headers: globexHeaders, connections: 1 })),
  );
  const { statuses } = await heavy;
  const answered = Object.entries(statuses)
    .map(([status, n]) => `${n} × ${status}`)
    .join(", ");
  addRow(ctx, "fairness-sparse", label, figures, `acme ${config.largeTenantDeployments} deployments: ${answered}`);
}

/** The reference server on SQLite: seeding, list variants, providers, create, page walk, memory, validation on, start-up. */
export async function referenceRows(ctx: BenchContext): Promise<void> {
  const { config } = ctx;
  const sqlitePath = join(ctx.dataDir, "bench.sqlite");
  const labels = new Map(referenceRowLabels(config));
  const deep = config.largeTenantDeployments - 100;
  let requestsServed = 0;
  const count = <F extends LoadFigures>(f: F): F => {
    requestsServed += f.requests + f.warmupRequests;
    return f;
  };

  let server: ChildServer | undefined = await startReference({
    name: "reference-validation-off",
    logDir: ctx.logDir,
    sqlitePath,
    validateResponses: false,
  });
  try {
    const acme: Caller = { url: server.url, apiKey: demo.acme.apiKey };
    const globex: Caller = { url: server.url, apiKey: demo.globex.apiKey };
    ctx.log(
      `seeding ${config.largeTenantDeployments} deployments in acme-production and ${config.smallTenantDeployments} in globex-production over HTTP (${config.connections} concurrent creates)`,
    );
    const seeded = count(await seedDeployments(acme, config.largeTenantDeployments, "ba", config.connections));
    const seededSmall = count(await seedDeployments(globex, config.smallTenantDeployments, "bg", config.connections));
    addRow(
      ctx,
      "seed-create",
      `reference SQLite: POST /v2/deployments (seeding)`,
      seeded,
      `${seeded.created} creates in ${seeded.durationS.toFixed(1)} s; globex ${seededSmall.created} at ${seededSmall.requestsPerS.toFixed(0)}/s`,
    );
    const rss = rssKiB(server.pid);
    const health = await call(acme, "GET", "/healthz");
    const heapUsed = heapUsedFromHealth(health.body);
    ctx.extras.memory = {
      afterRequests: requestsServed,
      rssMiB: (rss ?? 0) / 1024,
      ...(heapUsed !== undefined ? { heapUsedMiB: heapUsed > 1e5 ? heapUsed / 1024 / 1024 : heapUsed } : {}),
      source:
        heapUsed !== undefined
          ? "heap from /healthz, RSS from /proc/<pid>/status"
          : "the server exposes no heap figure; RSS of the server process from /proc/<pid>/status VmRSS",
    };
    await sleep(300); // READY_AFTER_MS=100: let the seeded deployments reach READY before the status filter row.

    const acmeHeaders = keyHeaders(acme);
    for (const [id, label, query] of referenceListRows(deep)) {
      const path = `/v2/deployments?${query}`;
      const note = await listNote(acme, path);
      addRow(
        ctx,
        id,
        label,
        count(await runLoad(loadOptions(ctx, server.url, path, { headers: acmeHeaders, pid: server.pid }))),
        note,
      );
      const baseline = sameBytesRows.find((row) => row.of === id);
      if (baseline)
        await sameBytesRow(ctx, baseline, await capturePage(acme, path, join(ctx.dataDir, `${baseline.id}.json`)));
    }
    // Filter rows: each note says what one answer held, so a row is proven to return data.
    const { url, pid } = server;
    const filterRow = async (id: RowId, query: string, what: string) =>
      addRow(
        ctx,
        id,
        labels.get(id)!,
        count(await runLoad(loadOptions(ctx, url, `/v2/deployments?${query}`, { headers: acmeHeaders, pid }))),
        `${what}: ${await listNote(acme, `/v2/deployments?${query}`)}`,
      );
    await filterRow("name-contains", "limit=20&offset=0&name_contains=777", "name_contains=777");
    // The prefix every seeded name of the tenant shares, with another filter (D-93).
    await filterRow(
      "name-status",
      "limit=20&offset=0&name_contains=ba-&status=READY",
      "name_contains=ba-, status=READY",
    );
    const middle = await call<DeploymentList>(
      acme,
      "GET",
      `/v2/deployments?limit=20&offset=${Math.floor(config.largeTenantDeployments / 2)}`,
    );
    const ids = middle.body.resources.map((d) => d.id).join(",");
    await filterRow("status-ids", `limit=20&offset=0&status=READY&deployment_ids=${ids}`, "status=READY, 20 ids");
    await fairnessRow(ctx, server, labels.get("fairness-sparse")!, count);

    addRow(
      ctx,
      "providers",
      labels.get("providers")!,
      count(
        await runLoad(loadOptions(ctx, server.url, "/v2/auth/providers", { headers: acmeHeaders, pid: server.pid })),
      ),
    );

    ctx.log("page walk: every page (limit=100) of the small and the large tenant");
    // Two walks of each, interleaved; the faster of each pair counts (other processes share the cores).
    const walks = {
      small: [] as Awaited<ReturnType<typeof walkDeployments>>[],
      large: [] as Awaited<ReturnType<typeof walkDeployments>>[],
    };
    for (let round = 0; round < 2; round++) {
      walks.small.push(await walkDeployments(globex, { keep: false }));
      walks.large.push(await walkDeployments(acme, { keep: false }));
    }
    const fastest = (list: Awaited<ReturnType<typeof walkDeployments>>[]) =>
      list.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a));
    const small = fastest(walks.small);
    const large = fastest(walks.large);
    for (const walk of [...walks.small, ...walks.large]) requestsServed += walk.pages;
    ctx.extras.pageWalk = {
      small: { deployments: small.count, pages: small.pages, elapsedMs: small.elapsedMs },
      large: { deployments: large.count, pages: large.pages, elapsedMs: large.elapsedMs },
      ratio: large.elapsedMs / small.elapsedMs,
      note: `one sequential client, keep-alive, faster of 2 walks each (${walks.small.map((w) => w.elapsedMs.toFixed(0)).join("/")} ms and ${walks.large.map((w) => w.elapsedMs.toFixed(0)).join("/")} ms); globex-production vs acme-production in the same database`,
    };
    const p50 = (id: RowId) => ctx.rows.find((row) => row.id === id)?.figures?.p50Ms;
    const ratio = (a?: number, b?: number) => (a !== undefined && b ? a / b : undefined);
    ctx.extras.deepOffsetP50Ratio = {
      limit20: ratio(p50("list20-deep"), p50("list20-off0")),
      limit100: ratio(p50("list100-deep"), p50("list100-off0")),
    };

    // Creates go to acme-staging so the tenants of the list rows keep their counts.
    let next = 0;
    const staging: Caller = { ...acme, tenantId: demo.acme.stagingTenantId };
    addRow(
      ctx,
      "create",
      labels.get("create")!,
      count(
        await runLoad(
          loadOptions(ctx, server.url, "/v2/deployments", {
            method: "POST",
            headers: keyHeaders(staging),
            body: () => JSON.stringify(templateDeployment(`bc-${next++}`)),
            pid: server.pid,
          }),
        ),
      ),
      "unique names, tenant acme-staging",
    );
    const rssEnd = rssKiB(server.pid);
    const parts = rssParts(server.pid);
    const split = parts
      ? `; of it ${(parts.anonKiB / 1024).toFixed(1)} MiB anonymous (heap, stacks) and ${(parts.fileKiB / 1024).toFixed(1)} MiB file-backed (the node binary, libraries and the bundle)`
      : "";
    if (rssEnd !== undefined && ctx.extras.memory)
      ctx.extras.memory = {
        ...ctx.extras.memory,
        afterRequests: requestsServed,
        rssMiB: rssEnd / 1024,
        source: `${ctx.extras.memory.source}${split}`,
      };
    await server.stop();
    server = undefined;

    // Same database file, a second process with response validation on.
    server = await startReference({
      name: "reference-validation-on",
      logDir: ctx.logDir,
      sqlitePath,
      validateResponses: true,
    });
    for (const [id, limit] of [
      ["list20-off0-validated", 20],
      ["list100-off0-validated", 100],
    ] as const) {
      const path = `/v2/deployments?limit=${limit}&offset=0`;
      const note = await listNote({ ...acme, url: server.url }, path);
      addRow(
        ctx,
        id,
        labels.get(id)!,
        await runLoad(loadOptions(ctx, server.url, path, { headers: acmeHeaders, pid: server.pid })),
        note,
      );
    }
    await server.stop();
    server = undefined;

    ctx.extras.startup = await startupFigure(ctx, sqlitePath);
  } finally {
    await server?.stop();
  }
}

/** Time from spawning the server to its first answer to a contract call, over several starts on the seeded file. */
async function startupFigure(ctx: BenchContext, sqlitePath: string): Promise<NonNullable<Extras["startup"]>> {
  const samples: number[] = [];
  const listening: number[] = [];
  for (let i = 0; i < ctx.config.startups; i++) {
    const target = await startReference({
      name: `startup-${i}`,
      logDir: ctx.logDir,
      sqlitePath,
      validateResponses: true,
    });
    try {
      const answer = await call({ url: target.url, apiKey: demo.acme.apiKey }, "GET", "/v2/auth/providers");
      samples.push(performance.now() - target.startedAt);
      listening.push(target.listeningAfterMs);
      if (answer.status !== 200) throw new Error(`first answer was ${answer.status}`);
    } finally {
      await target.stop();
    }
  }
  const result = {
    samplesMs: samples,
    medianMs: median(samples),
    listeningMedianMs: median(listening),
    note: `node dist/server/main.mjs (the built server, as npm start runs it) on the seeded file, validation on, first GET /v2/auth/providers sent on the "listening" line, timed from spawn (npm start adds npm's own start-up)`,
  };
  ctx.log(
    `start-up to first answer: median ${result.medianMs.toFixed(0)} ms (${samples.map((s) => s.toFixed(0)).join(", ")})`,
  );
  return result;
}

/** The same list call on PostgreSQL, in a fresh schema that is dropped afterwards. */
export async function postgresRow(ctx: BenchContext): Promise<void> {
  const label = "reference PostgreSQL: list limit=20 offset=0";
  const outcome = await onPostgres({ name: "reference", logDir: ctx.logDir }, async (server) => {
    const acme: Caller = { url: server.url, apiKey: demo.acme.apiKey };
    const seeded = await seedDeployments(acme, ctx.config.postgresDeployments, "bp", ctx.config.connections);
    const path = "/v2/deployments?limit=20&offset=0";
    const note = `${seeded.created} deployments seeded (creates ${seeded.requestsPerS.toFixed(0)}/s); ${await listNote(acme, path)}`;
    addRow(
      ctx,
      "pg-list20-off0",
      label,
      await runLoad(loadOptions(ctx, server.url, path, { headers: keyHeaders(acme), pid: server.pid })),
      note,
    );
  });
  if ("unreachable" in outcome) addRow(ctx, "pg-list20-off0", label, undefined, `PostgreSQL ${outcome.unreachable}`);
}
