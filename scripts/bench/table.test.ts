/** Tests of the benchmark report helpers (issue 6): target checks, ratios, quantiles, the listening line. */
import { describe, expect, it } from "vitest";
import { figures, quantile, type LoadFigures } from "./load.js";
import { evaluateTargets, formatReport, median, ratioToKoa, type Extras, type Row, type RowId } from "./table.js";
import { findListeningUrl } from "./targets.js";

const f = (requestsPerS: number, p50Ms = 1): LoadFigures => ({ requestsPerS, p50Ms, p99Ms: p50Ms * 3, requests: requestsPerS * 5, durationS: 5, non2xx: 0, errors: 0, statusCounts: { "200": requestsPerS * 5 }, warmupRequests: 0 });
const row = (id: RowId, rps: number): Row => ({ id, label: id, figures: f(rps) });
const walk = (ratio: number): Extras["pageWalk"] => ({ small: { deployments: 10_000, pages: 101, elapsedMs: 1000 }, large: { deployments: 100_000, pages: 1001, elapsedMs: 1000 * ratio }, ratio, note: "" });

describe("evaluateTargets", () => {
  const cases: { name: string; rows: Row[]; extras: Extras; want: (boolean | undefined)[] }[] = [
    {
      name: "every target met",
      rows: [row("bare-koa", 10_000), row("list20-off0", 3_000), row("prism-list20-off0", 500), row("create", 2_500), row("list20-off0-validated", 2_700), row("list100-off0", 1_000), row("list100-off0-validated", 850)],
      extras: { pageWalk: walk(10.5), startup: { samplesMs: [800, 900, 700], medianMs: 800, listeningMedianMs: 700, note: "" } },
      want: [true, true, true, true, true, true, true],
    },
    {
      name: "every target missed",
      rows: [row("bare-koa", 10_000), row("list20-off0", 2_000), row("prism-list20-off0", 500), row("create", 1_999), row("list20-off0-validated", 1_500), row("list100-off0", 1_000), row("list100-off0-validated", 700)],
      extras: { pageWalk: walk(12.5), startup: { samplesMs: [1200], medianMs: 1200, listeningMedianMs: 1100, note: "" } },
      want: [false, false, false, false, false, false, false],
    },
    { name: "nothing measured", rows: [], extras: {}, want: [undefined, undefined, undefined, undefined, undefined, undefined, undefined] },
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
    const result = figures({ latency: { p50: 9, p99: 9 } as never, duration: 2, non2xx: 1, errors: 0, statusCodeStats: { "200": { count: 10 }, "404": { count: 1 } } }, [1, 2, 3]);
    expect(result).toMatchObject({ requestsPerS: 5.5, requests: 11, p50Ms: 2, p99Ms: 3, statusCounts: { "200": 10, "404": 1 } });
  });

  it("gives each row's ratio to the bare Koa row", () => {
    const rows = [row("bare-koa", 4_000), row("list20-off0", 1_000)];
    expect(ratioToKoa(rows, rows[1]!)).toBe(0.25);
    expect(ratioToKoa([row("list20-off0", 1_000)], row("list20-off0", 1_000))).toBeUndefined();
  });

  it.each([
    { given: '{"level":30,"msg":"listening","url":"http://127.0.0.1:4321"}\n', want: "http://127.0.0.1:4321" },
    { given: 'banner at http://127.0.0.1:1\n{"msg":"demo data seeded"}\n{"msg":"listening","url":"http://127.0.0.1:9"}', want: "http://127.0.0.1:9" },
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
    expect(text).toMatch(/create ≥ 2,000 req\/s\s+missing\s+unknown/);
  });
});
