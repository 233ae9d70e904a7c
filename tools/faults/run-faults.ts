/**
 * The suite tests itself: runs the whole suite against each deliberately faulty implementation
 * (a proxy in front of a fresh reference server) and fails unless every fault is caught by a failing check
 * at the level it deserves (a MUST fault by a MUST check). A control run through a transparent proxy must pass.
 * The other half (D-232): every legal variant (tools/variants/) runs in both hosting kinds and must pass every MUST check,
 * in a series against one server: shuffled with each of `--variant-seeds`, then once more in area order on the used
 * server (D-300).
 *
 * `npm run conformance:faults [-- --concurrency 2 --only id,id --shard k/n --variants-only --fuzz-runs 30 --seed N --variant-seeds 1,2,3 --table FILE]`
 */

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../../common/cli.js";
import type { RunResult } from "../../conformance/runner/result.js";
import { demoFlags } from "../../contract/demo.js";
import { startChildServer } from "../../server/testing/child-server.js";
import { buildServerIfStale } from "../build/build-server.js";
import { variants } from "../variants/catalog.js";
import { faults } from "./catalog.js";
import { corpusFaults } from "./corpus-catalog.js";
import { jsonFaults } from "./json-catalog.js";
import { lawFaults } from "./law-catalog.js";
import { propertyFaults } from "./property-catalog.js";
import { type Fault, startFaultProxy } from "./proxy.js";
import { inShard, parseShard } from "./shard.js";
import { subtleFaults } from "./subtle-catalog.js";
import { runVariant, type VariantOutcome, variantPlan, variantTable } from "./variant-run.js";

const cli = fileURLToPath(new URL("../../conformance/bin.ts", import.meta.url));

interface Outcome {
  id: string;
  level: "MUST" | "SHOULD" | "none";
  description: string;
  exitCode: number;
  failing: { id: string; level: string }[];
  /** The problems the run read its failures as (D-243). */
  problems: number;
  caught: boolean;
  seconds: number;
  error?: string;
}

const usage = `Usage: npm run conformance:faults -- [--concurrency N] [--only ID,ID] [--shard K/N] [--variants-only] [--fuzz-runs N] [--seed N] [--variant-seeds LIST] [--table FILE]
  --concurrency N   faulty implementations judged at a time (default 2)
  --only ID,ID      only these faults and legal variants (and no control run)
  --shard K/N       only every N-th fault of the catalogue from the K-th (the control and every legal variant still run)
  --variants-only   only the legal variants, in both hosting kinds (no fault, no control run)
  --fuzz-runs N     property runs per fuzzed operation (default 30)
  --seed N          the suite's seed in the fault runs (default 20261121)
  --variant-seeds L each legal variant's series against one server: the suite shuffled with each seed, then the
                    first seed again in area order on the used server (default: the --seed value; the full matrix
                    is --variant-seeds 1,2,3)
  --table FILE      where the Markdown table of the outcomes goes (default /tmp/readme-conformance-faults.md)`;

/** Runs the CLI as a child process with the target's flags and reads its results.json. */
function runSuite(
  targetFlags: string[],
  reportDir: string,
  fuzzRuns: string,
  seed: string,
): Promise<{ code: number; result?: RunResult; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        cli,
        ...targetFlags,
        "--report-dir",
        reportDir,
        "--quiet",
        "--fuzz-runs",
        fuzzRuns,
        "--seed",
        seed,
      ],
      {
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    child.stderr.on("data", (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    child.on("exit", (code) => {
      let result: RunResult | undefined;
      try {
        result = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8")) as RunResult;
      } catch {
        result = undefined;
      }
      resolve({ code: code ?? 2, result, output });
    });
  });
}

/** Checks that already fail in the control run: they cannot count as catching a fault. */
const preexisting = new Set<string>();

async function runOne(fault: Fault | undefined, fuzzRuns: string, seed: string): Promise<Outcome> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "conformance-fault-"));
  const hosting = fault?.hosting ?? "cloud";
  const server = await startChildServer({ env: { READY_AFTER_MS: "200", HOSTING: hosting } });
  const proxy = await startFaultProxy(server.url, fault);
  try {
    // the proxy reads each request with Node's parser and sends it again, so a request head written by hand (HDR-010:
    // HTTP/1.0, no Host, a Host list, two key lines, Expect, 431) meets the proxy's answers, not the server's
    const flags = [...demoFlags(proxy.url, hosting), "--skip", "HDR-010"];
    const { code, result, output } = await runSuite(flags, dir, fuzzRuns, seed);
    const failing = (result?.verdicts ?? [])
      .filter((v) => v.status === "fail")
      .map((v) => ({ id: v.id, level: v.level }));
    const problems = result?.problems.length ?? 0;
    // a fault that names how many problems it is must read as that many: one cause, one problem (D-384)
    const counted = !fault?.problems || (problems >= fault.problems[0] && problems <= fault.problems[1]);
    const caught = fault
      ? counted && failing.some((f) => !preexisting.has(f.id) && (fault.level === "SHOULD" || f.level === "MUST"))
      : code === 0 && failing.length === 0;
    return {
      id: fault?.id ?? "control (no fault)",
      level: fault?.level ?? "none",
      description: fault?.description ?? "a transparent proxy: every check must pass",
      exitCode: code,
      failing,
      problems,
      caught,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(result ? {} : { error: output.slice(-2000) }),
    };
  } finally {
    await proxy.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs jobs with at most `limit` at a time, keeping their order in the result. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

function table(outcomes: Outcome[]): string {
  const rows = outcomes.map((o) => {
    // a check that already fails without any fault catches nothing; list only the others
    const own = o.failing.filter((f) => o.level === "none" || !preexisting.has(f.id));
    const must = own.filter((f) => f.level === "MUST").map((f) => f.id);
    const should = own.filter((f) => f.level === "SHOULD").map((f) => f.id);
    const catching =
      o.level === "none"
        ? own.length === 0
          ? "none (as required)"
          : `failing without a fault: ${own.map((f) => f.id).join(", ")}`
        : [...must.map((id) => `**${id}**`), ...should].join(", ") || "—";
    return `| ${o.id} | ${o.level} | ${o.description} | ${catching} | ${o.caught ? "yes" : "**NO**"} |`;
  });
  return [
    "| Fault | Level | What is wrong | Failing checks (MUST in bold) | Caught at its level |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

async function main(): Promise<number> {
  const { values } = parseCommandLine(usage, {
    only: { type: "string" },
    shard: { type: "string" },
    concurrency: { type: "string", default: "2" },
    "fuzz-runs": { type: "string", default: "30" },
    "variants-only": { type: "boolean", default: false },
    seed: { type: "string", default: "20261121" },
    "variant-seeds": { type: "string" },
    table: { type: "string", default: "/tmp/readme-conformance-faults.md" },
  });
  const only = values.only?.split(",");
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency must be a positive integer, got ${values.concurrency}`);
  const fuzzRuns = values["fuzz-runs"];
  await buildServerIfStale();
  const seed = values.seed;
  const plan = variantPlan((values["variant-seeds"] ?? seed).split(",").filter(Boolean));
  const tablePath = values.table;
  const variantsOnly = values["variants-only"] === true;
  const catalogue = [...faults, ...subtleFaults, ...propertyFaults, ...lawFaults, ...jsonFaults, ...corpusFaults];
  const selected = variantsOnly
    ? []
    : inShard(catalogue, parseShard(values.shard ?? "1/1")).filter((f) => !only || only.includes(f.id));
  const selectedVariants = variants.filter((v) => !only || only.includes(v.id));
  const started = Date.now();
  if (!variantsOnly)
    console.log(
      `Running the suite against ${selected.length} faulty implementations${values.shard ? ` (part ${values.shard} of the catalogue's ${catalogue.length})` : ""}${only ? "" : " and a control"}, ${concurrency} at a time (fuzz runs ${fuzzRuns}, seed ${seed})`,
    );
  const variantRuns = selectedVariants.flatMap((variant) =>
    (["cloud", "self_hosted"] as const).map((hosting) => ({ variant, hosting })),
  );
  if (variantRuns.length > 0)
    console.log(
      `Running the suite against ${variantRuns.length} legal variant series of ${plan.length} runs each (${plan.map((p) => p.label).join("; ")}); every MUST check must pass in every run`,
    );
  const judgeVariant = async ({ variant, hosting }: (typeof variantRuns)[number]): Promise<VariantOutcome> => {
    const o = await runVariant(variant, hosting, plan, (flags, dir, runSeed) =>
      runSuite(flags, dir, fuzzRuns, runSeed),
    );
    const musts = o.runs.filter((r) => r.must.length > 0).map((r) => `${r.label}: ${r.must.join(", ")}`);
    console.log(
      `${o.must.length === 0 && !o.error ? "✓" : "✗"} ${o.id} (${hosting}) ${o.seconds}s, ${o.runs.length} runs → MUST failing: ${musts.join("; ") || "none"}; SHOULD failing: ${o.should.join(", ") || "none"}${o.error ? `\n${o.error}` : ""}`,
    );
    return o;
  };
  // A variant that rate-limits the suite mostly waits on its pace (a series took 222 to 362 s): its series run one at
  // a time in a lane of their own, beside the faults, instead of holding one of the --concurrency slots.
  const paced = variantRuns.filter(({ variant }) => variant.knobs.rateLimit !== undefined);
  const pacedLane = pool(paced, 1, judgeVariant);
  // awaited after the faults; until then a failure of the lane must not end the process as an unhandled rejection
  pacedLane.catch(() => undefined);
  // the control first: its failures (if any) are findings about the reference server and catch nothing
  const control = only || variantsOnly ? [] : [await runOne(undefined, fuzzRuns, seed)];
  for (const f of control[0]?.failing ?? []) preexisting.add(f.id);
  if (control[0])
    console.log(
      `${control[0].caught ? "✓" : "✗"} control ${control[0].seconds}s → ${control[0].failing.map((f) => `${f.id}(${f.level})`).join(", ") || "every check passed"}`,
    );
  const rest = await pool(selected, concurrency, async (fault) => {
    const o = await runOne(fault, fuzzRuns, seed);
    console.log(
      `${o.caught ? "✓" : "✗"} ${o.id} [${o.level}] ${o.seconds}s, ${o.problems} problem${o.problems === 1 ? "" : "s"} → ${o.failing.map((f) => `${f.id}(${f.level})`).join(", ") || "no failing check"}${o.error ? `\n${o.error}` : ""}`,
    );
    return o;
  });
  const outcomes = [...control, ...rest];
  const unpaced = await pool(
    variantRuns.filter((run) => !paced.includes(run)),
    concurrency,
    judgeVariant,
  );
  const legal: VariantOutcome[] = [...(await pacedLane), ...unpaced];
  const suiteRuns = legal.reduce((n, o) => n + o.runs.length, 0);
  const failedRuns = legal.reduce((n, o) => n + o.runs.filter((r) => r.must.length > 0 || r.error).length, 0);
  const mustFailures = legal.reduce((n, o) => n + o.runs.reduce((m, r) => m + r.must.length, 0), 0);
  const seconds = Math.round((Date.now() - started) / 1000);
  const faultSection = [
    "## Faulty implementations the suite catches",
    "",
    `\`npm run conformance:faults\` runs the whole suite against each fault below (a proxy in front of a fresh reference server, one fault each) and fails unless every fault is caught by a failing check at its level. Last run: ${outcomes.filter((o) => o.caught).length}/${outcomes.length} as required, ${seconds} s wall time, ${concurrency} at a time, fuzz runs ${fuzzRuns}, seed ${seed}.`,
    "",
    table(outcomes),
    "",
  ];
  const variantSection = [
    "## Legal variants the suite passes",
    "",
    `Each legal variant below is the spec-only implementation (\`tools/variants/\`) with other choices where the interface spec is silent; \`npm run conformance:faults\` runs the suite against each in both hosting kinds, in a series against one server (${plan.map((p) => p.label).join("; ")}), and fails on any MUST failure. Last run: ${legal.filter((o) => o.must.length === 0 && !o.error).length}/${legal.length} series and ${suiteRuns - failedRuns}/${suiteRuns} suite runs without a MUST failure (${mustFailures} MUST failures in all), fuzz runs ${fuzzRuns}.`,
    "",
    variantTable(legal),
    "",
  ];
  const md = [
    ...(selected.length > 0 || control.length > 0 ? faultSection : []),
    ...(legal.length > 0 ? variantSection : []),
  ];
  writeFileSync(tablePath, md.join("\n"));
  console.log(`\n${md.join("\n")}\n\nWall time ${seconds} s. Table written to ${tablePath}`);
  const missed = outcomes.filter((o) => !o.caught);
  const failedVariants = legal.filter((o) => o.must.length > 0 || o.error);
  if (missed.length > 0) console.error(`Not caught at their level: ${missed.map((o) => o.id).join(", ")}`);
  if (failedVariants.length > 0)
    console.error(
      `Legal variants failing a MUST check: ${failedVariants.map((o) => `${o.id} (${o.hosting})`).join(", ")}`,
    );
  if (missed.length > 0 || failedVariants.length > 0) return 1;
  console.log(
    "Every fault was caught at its level, the control run passed, and every legal variant passed every MUST check.",
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).stack ?? String(error));
    process.exit(2);
  },
);
