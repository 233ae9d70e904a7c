/** Tests of the benchmark report helpers: target checks, CPU ratios, quantiles, the listening line, /proc stat parsing. */
import { describe, expect, it } from "vitest";
import { quantile } from "../harness/quantile.js";
import { figures, type LoadFigures, serverUsage } from "./load.js";
import { usageFromStat } from "./server-cpu.js";
import { cpuRatio, type Extras, evaluateTargets, formatReport, median, type Row, type RowId } from "./table.js";
import { findListeningUrl } from "./targets.js";

const f = (requestsPerS: number, cpuUsPerRequest?: number): LoadFigures => ({
  requestsPerS,
  p50Ms: 1,
  p99Ms: 3,
  requests: requestsPerS * 5,
  durationS: 5,
  non2xx: 0,
  errors: 0,
  statusCounts: { "200": requestsPerS * 5 },
  warmupRequests: 0,
  ...(cpuUsPerRequest !== undefined ? { cpuUsPerRequest } : {}),
});
const row = (id: RowId, rps: number, cpu?: number): Row => ({ id, label: id, figures: f(rps, cpu) });
const memory = (rssMiB: number): Extras["memory"] => ({ afterRequests: 1, rssMiB, source: "" });
const walk = (ratio: number): Extras["pageWalk"] => ({
  small: { deployments: 10_000, pages: 101, elapsedMs: 1000 },
  large: { deployments: 100_000, pages: 1001, elapsedMs: 1000 * ratio },
  ratio,
  note: "",
});

describe("evaluateTargets", () => {
  const cases: { name: string; rows: Row[]; extras: Extras; want: (boolean | undefined)[] }[] = [
    {
      name: "every target met",
      rows: [
        row("koa-bytes-list20", 30_000, 30),
        row("list20-off0", 8_000, 110),
        row("koa-bytes-list100", 12_000, 80),
        row("list100-off0", 3_000, 300),
        row("prism-list20-off0", 900),
        row("name-contains", 5_000),
        row("name-status", 5_000),
        row("status-ids", 6_000),
        row("pg-list20-off0", 4_100),
        row("create", 4_500),
      ],
      extras: {
        pageWalk: walk(10.5),
        startup: { samplesMs: [250, 280, 200], medianMs: 250, listeningMedianMs: 200, note: "" },
        memory: memory(100),
      },
      want: [true, true, true, true, true, true, true, true, true, true],
    },
    {
      name: "every target missed",
      rows: [
        row("koa-bytes-list20", 30_000, 30),
        row("list20-off0", 8_000, 130),
        row("koa-bytes-list100", 12_000, 80),
        row("list100-off0", 3_000, 330),
        row("prism-list20-off0", 1_100),
        row("name-contains", 3_900),
        row("name-status", 6_000),
        row("status-ids", 6_000),
        row("pg-list20-off0", 3_900),
        row("create", 3_999),
      ],
      extras: {
        pageWalk: walk(12.5),
        startup: { samplesMs: [300], medianMs: 300, listeningMedianMs: 250, note: "" },
        memory: memory(121),
      },
      want: [false, false, false, false, false, false, false, false, false, false],
    },
    { name: "nothing measured", rows: [], extras: {}, want: Array(10).fill(undefined) },
  ];
  it.each(cases)("$name", ({ rows, extras, want }) => {
    expect(evaluateTargets(rows, extras).map((check) => check.met)).toEqual(want);
  });
});

describe("helpers", () => {
  it.each([
    { given: [3, 1, 2], want: 2 },
    { given: [4, 1, 3, 2], want: 2.5 },
    { given: [5], want: 5 },
  ])("median of $given is $want", ({ given, want }) => expect(median(given)).toBe(want));

  it.each([
    { given: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], q: 0.5, want: 5 },
    { given: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], q: 0.99, want: 10 },
    { given: [10, 1], q: 0.5, want: 1 },
  ])("quantile $q of $given is $want", ({ given, q, want }) => expect(quantile(given, q)).toBe(want));

  it("computes throughput from completed requests and the run time", () => {
    const result = figures(
      {
        latency: { p50: 9, p99: 9 } as never,
        duration: 2,
        non2xx: 1,
        errors: 0,
        statusCodeStats: { "200": { count: 10 }, "404": { count: 1 } },
      },
      [1, 2, 3],
    );
    expect(result).toMatchObject({
      requestsPerS: 5.5,
      requests: 11,
      p50Ms: 2,
      p99Ms: 3,
      statusCounts: { "200": 10, "404": 1 },
    });
  });

  it("gives a row's server CPU per request over its same-bytes baseline's", () => {
    const rows = [row("koa-bytes-list20", 30_000, 25), row("list20-off0", 8_000, 100), row("list20-deep", 8_000, 100)];
    expect(cpuRatio(rows, rows[1]!)).toBe(4);
    expect(cpuRatio(rows, rows[2]!)).toBeUndefined();
    expect(cpuRatio([row("list20-off0", 1_000, 100)], row("list20-off0", 1_000, 100))).toBeUndefined();
  });

  it("reads user + system time and minor faults from /proc/<pid>/stat text, whatever the command name holds", () => {
    const stat = "4242 (node (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 100 1000 100";
    expect(usageFromStat(stat, 100)).toEqual({ cpuMs: 3000, minorFaults: 100 });
  });

  it.each([
    {
      given: { before: { cpuMs: 1000, minorFaults: 500 }, after: { cpuMs: 4000, minorFaults: 5500 }, requests: 10_000 },
      want: { serverCpuMs: 3000, cpuUsPerRequest: 300, faultsPerRequest: 0.5 },
    },
    {
      given: { before: { cpuMs: 0, minorFaults: 0 }, after: { cpuMs: 10, minorFaults: 3 }, requests: 0 },
      want: { serverCpuMs: 10 },
    },
  ])("gives the server's CPU and faults per request: $want", ({ given, want }) => {
    expect(serverUsage(given.before, given.after, given.requests)).toEqual(want);
  });

  it.each([
    { given: '{"level":30,"msg":"listening","url":"http://127.0.0.1:4321"}\n', want: "http://127.0.0.1:4321" },
    {
      given: 'banner at http://127.0.0.1:1\n{"msg":"demo data seeded"}\n{"msg":"listening","url":"http://127.0.0.1:9"}',
      want: "http://127.0.0.1:9",
    },
    { given: "listening on 8080\n", want: undefined },
    { given: '{"msg":"listening"}', want: undefined },
  ])("finds the listening URL in $given", ({ given, want }) => expect(findListeningUrl(given)).toBe(want));

  it("prints skipped rows and unknown targets", () => {
    const text = formatReport({
      startedAt: "t",
      mode: "quick",
      command: "npm run bench -- --quick",
      machine: { nproc: 2, memTotalMiB: 1, cpuModel: "cpu", node: "v20", loadAverageAtStart: [0, 0, 0] },
      rows: [{ id: "pg-list20-off0", label: "pg row", note: "PostgreSQL unreachable" }],
      extras: {},
      targets: evaluateTargets([], {}),
    });
    expect(text).toMatch(/pg row\s+skipped.*PostgreSQL unreachable/);
    expect(text).toMatch(/create ≥ 4,000 req\/s.*\s+missing\s+unknown/);
  });
});
