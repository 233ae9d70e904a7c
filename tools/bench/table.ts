/**
 * The benchmark report: the rows (req/s, p50, p99 and the server's CPU per request beside the
 * same-bytes baseline's), the extra figures, the targets beside the measured values (met / not met),
 * and its text rendering. Pure functions, so they are unit-tested.
 */
import type { LoadFigures } from "./load.js";

/** Identifiers of the rows the targets refer to. */
export type RowId =
  | "bare-http"
  | "bare-koa"
  | "koa-bytes-list20"
  | "koa-bytes-list100"
  | "seed-create"
  | "list20-off0"
  | "list100-off0"
  | "list20-deep"
  | "list100-deep"
  | "name-contains"
  | "name-status"
  | "status-ids"
  | "fairness-sparse"
  | "create"
  | "providers"
  | "list20-off0-validated"
  | "list100-off0-validated"
  | "pg-list20-off0"
  | "prism-list20-off0";

export interface Row {
  id: RowId;
  label: string;
  /** Measured figures, or undefined when the row was skipped. */
  figures?: LoadFigures;
  /** Why the row was skipped, or what it measured (items per answer, data size, ...). */
  note?: string;
  /** The machine's 1-minute load average when the row ended (other processes share the cores). */
  load1m?: number;
}

export interface Extras {
  startup?: { samplesMs: number[]; medianMs: number; listeningMedianMs: number; note: string };
  statefulMockStartup?: { samplesMs: number[]; medianMs: number; note: string };
  memory?: { afterRequests: number; rssMiB: number; heapUsedMiB?: number; source: string };
  pageWalk?: { small: WalkFigure; large: WalkFigure; ratio: number; note: string };
  deepOffsetP50Ratio?: { limit20?: number; limit100?: number };
}

interface WalkFigure {
  deployments: number;
  pages: number;
  elapsedMs: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  /** undefined when a figure it needs is missing. */
  met: boolean | undefined;
}

interface Machine {
  nproc: number;
  memTotalMiB: number;
  cpuModel: string;
  node: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

export interface Report {
  startedAt: string;
  mode: "full" | "quick";
  command: string;
  machine: Machine;
  rows: Row[];
  extras: Extras;
  targets: TargetCheck[];
  elapsedS?: number;
}

/** requests/s of a row, if it was measured. */
function rps(rows: Row[], id: RowId): number | undefined {
  return rows.find((row) => row.id === id)?.figures?.requestsPerS;
}

/** Server CPU microseconds per request of a row, if it was measured with the server's pid. */
function cpuPerRequest(rows: Row[], id: RowId): number | undefined {
  return rows.find((row) => row.id === id)?.figures?.cpuUsPerRequest;
}

/** The bare Koa row answering the same bytes as a reference row (a captured page), if the row has one. */
const sameBytesBaseline: Partial<Record<RowId, RowId>> = {
  "list20-off0": "koa-bytes-list20",
  "list20-off0-validated": "koa-bytes-list20",
  "list100-off0": "koa-bytes-list100",
  "list100-off0-validated": "koa-bytes-list100",
};

/** A row's server CPU per request as a multiple of its same-bytes baseline's. */
export function cpuRatio(rows: Row[], row: Row): number | undefined {
  const baselineId = sameBytesBaseline[row.id];
  const own = row.figures?.cpuUsPerRequest;
  const base = baselineId ? cpuPerRequest(rows, baselineId) : undefined;
  return own !== undefined && base ? own / base : undefined;
}

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(digits);
}

/** Checks the targets of the reference server (production mode, SQLite unless the row says otherwise, response validation off). */
export function evaluateTargets(rows: Row[], extras: Extras): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const [id, label] of [
    ["list20-off0", "limit=20"],
    ["list100-off0", "limit=100"],
  ] as const) {
    const row = rows.find((r) => r.id === id);
    const ratio = row ? cpuRatio(rows, row) : undefined;
    const baseline = sameBytesBaseline[id]!;
    checks.push({
      target: `list ${label}: server CPU/request ≤ 4x bare Koa sending the same bytes`,
      measured:
        ratio !== undefined
          ? `${fixed(ratio, 1)}x (${fixed(cpuPerRequest(rows, id), 0)} vs ${fixed(cpuPerRequest(rows, baseline), 0)} µs)`
          : "missing",
      met: ratio !== undefined ? ratio <= 4 : undefined,
    });
  }
  const list = rps(rows, "list20-off0");
  const prism = rps(rows, "prism-list20-off0");
  checks.push({
    target: "list limit=20 ≥ 8x Prism mock req/s",
    measured: list && prism ? `${fixed(list / prism, 1)}x (${fixed(list, 0)} vs ${fixed(prism, 0)} req/s)` : "missing",
    met: list && prism ? list >= 8 * prism : undefined,
  });
  const nameContains = rps(rows, "name-contains");
  checks.push({
    target: "name_contains ≥ 50% of the unfiltered list's req/s",
    measured:
      nameContains && list
        ? `${fixed((100 * nameContains) / list, 0)}% (${fixed(nameContains, 0)} vs ${fixed(list, 0)} req/s)`
        : "missing",
    met: nameContains && list ? nameContains >= 0.5 * list : undefined,
  });
  const filters = (["name-contains", "name-status", "status-ids"] as const).map((id) => [id, rps(rows, id)] as const);
  const slowest =
    filters.every(([, value]) => value !== undefined) && list
      ? Math.max(...filters.map(([, value]) => list / value!))
      : undefined;
  checks.push({
    target: "every filter row within 2x of the unfiltered row's req/s",
    measured:
      slowest !== undefined
        ? `slowest ${fixed(slowest, 2)}x slower (${filters.map(([id, value]) => `${id} ${fixed(value, 0)}`).join(", ")} vs ${fixed(list, 0)} req/s)`
        : "missing",
    met: slowest !== undefined ? slowest <= 2 : undefined,
  });
  const pgList = rps(rows, "pg-list20-off0");
  checks.push({
    target: "PostgreSQL list limit=20 ≥ 50% of SQLite's req/s",
    measured:
      pgList && list
        ? `${fixed((100 * pgList) / list, 0)}% (${fixed(pgList, 0)} vs ${fixed(list, 0)} req/s)`
        : "missing",
    met: pgList && list ? pgList >= 0.5 * list : undefined,
  });
  const create = rps(rows, "create");
  checks.push({
    target: "create ≥ 4,000 req/s (SQLite, synchronous=FULL)",
    measured: create ? `${fixed(create, 0)} req/s` : "missing",
    met: create ? create >= 4000 : undefined,
  });
  const startup = extras.startup;
  checks.push({
    target: "start-up to first answer < 300 ms",
    measured: startup ? `median ${fixed(startup.medianMs, 0)} ms of ${startup.samplesMs.length} starts` : "missing",
    met: startup ? startup.medianMs < 300 : undefined,
  });
  const memory = extras.memory;
  checks.push({
    target: "RSS after the bench's requests < 120 MiB",
    measured: memory ? `${fixed(memory.rssMiB, 1)} MiB after ${memory.afterRequests} requests` : "missing",
    met: memory ? memory.rssMiB < 120 : undefined,
  });
  const walk = extras.pageWalk;
  checks.push({
    target: "walk all pages (limit=100): 10x the deployments ≤ 12x the time",
    measured: walk
      ? `${fixed(walk.ratio, 2)}x (${walk.large.deployments} in ${fixed(walk.large.elapsedMs, 0)} ms vs ${walk.small.deployments} in ${fixed(walk.small.elapsedMs, 0)} ms)`
      : "missing",
    met: walk ? walk.ratio <= 12 : undefined,
  });
  return checks;
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 || column === row.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The rows as a plain-text table. */
function formatRows(rows: Row[]): string {
  const cells = [
    ["row", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "x same bytes", "faults/req", "non-2xx", "load", "note"],
  ];
  for (const row of rows) {
    const f = row.figures;
    cells.push([
      row.label,
      f ? fixed(f.requestsPerS, 0) : "skipped",
      f ? fixed(f.p50Ms, 2) : "-",
      f ? fixed(f.p99Ms, 2) : "-",
      fixed(f?.cpuUsPerRequest, 0),
      fixed(cpuRatio(rows, row), 1),
      fixed(f?.faultsPerRequest, 1),
      f ? String(f.non2xx + f.errors) : "-",
      fixed(row.load1m, 1),
      row.note ?? "",
    ]);
  }
  return pad(cells);
}

/** The target checks as a plain-text table. */
function formatTargets(checks: TargetCheck[]): string {
  const cells = [["target", "measured", "result"]];
  for (const check of checks)
    cells.push([check.target, check.measured, check.met === undefined ? "unknown" : check.met ? "met" : "NOT MET"]);
  return pad(cells.map((row) => [row[0]!, row[1]!, row[2]!]));
}

/** The whole report as text: rows, extra figures, targets. */
export function formatReport(report: Report): string {
  const lines: string[] = [];
  const m = report.machine;
  lines.push(`npm run bench (${report.mode}) — ${report.startedAt}`);
  lines.push(
    `machine: ${m.nproc} cores (${m.cpuModel}), ${m.memTotalMiB} MiB, node ${m.node}, load average at start ${m.loadAverageAtStart.map((x) => x.toFixed(2)).join(" ")}${m.loadAverageAtEnd ? `, at end ${m.loadAverageAtEnd.map((x) => x.toFixed(2)).join(" ")}` : ""}`,
  );
  lines.push("");
  lines.push(formatRows(report.rows));
  lines.push(
    `(req/s: completed requests over the measured time; p50/p99: latency of every response; CPU µs/req: the target process's user + system CPU time over the measured time (/proc/<pid>/stat) per completed request; x same bytes: that CPU over the bare Koa row answering the same page bytes; faults/req: the target's minor page faults (/proc/<pid>/stat) per completed request, memory its allocator gave back and touched again; load: the machine's 1-minute load average as the row ended — above ${m.nproc}, other processes were competing for the cores)`,
  );
  lines.push("");
  const e = report.extras;
  if (e.statefulMockStartup) {
    const m = e.statefulMockStartup;
    lines.push(
      `stateful mock start-up to first answer: median ${fixed(m.medianMs, 0)} ms (samples ${m.samplesMs.map((x) => x.toFixed(0)).join(", ")} ms; target < 1000 ms) — ${m.note}`,
    );
  }
  if (e.startup)
    lines.push(
      `start-up to first answer: median ${fixed(e.startup.medianMs, 0)} ms (samples ${e.startup.samplesMs.map((x) => x.toFixed(0)).join(", ")} ms; "listening" line median ${fixed(e.startup.listeningMedianMs, 0)} ms) — ${e.startup.note}`,
    );
  if (e.memory)
    lines.push(
      `memory after ${e.memory.afterRequests} requests: RSS ${fixed(e.memory.rssMiB, 1)} MiB${e.memory.heapUsedMiB !== undefined ? `, heap used ${fixed(e.memory.heapUsedMiB, 1)} MiB` : ""} (${e.memory.source})`,
    );
  if (e.pageWalk) {
    const w = e.pageWalk;
    lines.push(
      `page walk (limit=100): ${w.small.deployments} deployments in ${w.small.pages} pages ${fixed(w.small.elapsedMs, 0)} ms; ${w.large.deployments} in ${w.large.pages} pages ${fixed(w.large.elapsedMs, 0)} ms; ratio ${fixed(w.ratio, 2)}x — ${w.note}`,
    );
  }
  if (e.deepOffsetP50Ratio)
    lines.push(
      `p50 at the deep offset vs offset 0: limit=20 ${fixed(e.deepOffsetP50Ratio.limit20, 2)}x, limit=100 ${fixed(e.deepOffsetP50Ratio.limit100, 2)}x`,
    );
  lines.push("");
  lines.push(formatTargets(report.targets));
  if (report.elapsedS !== undefined) lines.push(`\nwhole run: ${report.elapsedS.toFixed(0)} s`);
  return lines.join("\n");
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
