/** One suite run against a legal variant (tools/variants/), and the table of such runs (D-232). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResult } from "../../conformance/runner/result.js";
import { demoFlags } from "../../contract/demo.js";
import type { Variant } from "../variants/catalog.js";
import { demoSeed } from "../variants/demo-seed.js";
import { profileChoices } from "../variants/knobs.js";
import { startVariantServer } from "../variants/server.js";

type Hosting = "cloud" | "self_hosted";

/** One run of the suite in a variant's series: its seed, whether shuffled, and what failed. */
interface VariantRun {
  /** e.g. "seed 1 shuffled" or "seed 1 again, area order (used target)". */
  label: string;
  exitCode: number;
  must: string[];
  should: string[];
  seconds: number;
  error?: string;
}

/** What the series of runs against one variant in one hosting kind found. */
export interface VariantOutcome {
  id: string;
  hosting: Hosting;
  description: string;
  /** Every run of the series, in the order run against the one server. */
  runs: VariantRun[];
  /** Failing MUST checks in any run: each one is a wrong check, since the variant is legal. */
  must: string[];
  /** Failing SHOULD checks in any run: where the variant's choices differ from the profile, as expected. */
  should: string[];
  seconds: number;
  /** Set when a run ended without a result (exit 2 or no results.json). */
  error?: string;
}

/** One planned run of a series: the suite's `--seed` and whether `--shuffle` is given. */
interface PlannedRun {
  label: string;
  seed: string;
  shuffle: boolean;
}

/**
 * The series run against one variant server (D-300): each seed shuffled, then the first seed again in area order
 * against the now-used server, so one series covers several orders, a fresh and a used target.
 */
export function variantPlan(seeds: string[]): PlannedRun[] {
  if (seeds.length === 0) throw new Error("a variant series needs at least one seed");
  return [
    ...seeds.map((seed) => ({ label: `seed ${seed} shuffled`, seed, shuffle: true })),
    { label: `seed ${seeds[0]} again, area order (used target)`, seed: seeds[0]!, shuffle: false },
  ];
}

/** The demo flags for a target, less the ones the variant has nothing for, plus its own. */
function variantFlags(variant: Variant, url: string, hosting: Hosting): string[] {
  const flags = demoFlags(url, hosting);
  for (const drop of variant.dropFlags ?? []) {
    const at = flags.indexOf(drop);
    if (at >= 0) flags.splice(at, 2);
  }
  return [...flags, ...(variant.extraFlags ?? [])];
}

/** What the suite is run with: the target's flags, a report folder and the run's seed. */
type Suite = (
  flags: string[],
  reportDir: string,
  seed: string,
) => Promise<{ code: number; result?: RunResult; output: string }>;

const union = (lists: string[][]): string[] => [...new Set(lists.flat())];

/** Starts the variant, runs the planned series against that one server with `suite`, and stops it. */
export async function runVariant(
  variant: Variant,
  hosting: Hosting,
  plan: PlannedRun[],
  suite: Suite,
): Promise<VariantOutcome> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "conformance-variant-"));
  const server = await startVariantServer({ ...profileChoices, ...variant.knobs, hosting }, demoSeed());
  const runs: VariantRun[] = [];
  try {
    for (const [index, planned] of plan.entries()) {
      const runStarted = Date.now();
      const reportDir = join(dir, String(index));
      const flags = [...variantFlags(variant, server.url, hosting), ...(planned.shuffle ? ["--shuffle"] : [])];
      const { code, result, output } = await suite(flags, reportDir, planned.seed);
      const failing = (result?.verdicts ?? []).filter((v) => v.status === "fail");
      runs.push({
        label: planned.label,
        exitCode: code,
        must: failing.filter((v) => v.level === "MUST").map((v) => v.id),
        should: failing.filter((v) => v.level === "SHOULD").map((v) => v.id),
        seconds: Math.round((Date.now() - runStarted) / 100) / 10,
        ...(result && code !== 2 ? {} : { error: output.slice(-2000) }),
      });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const errors = runs.filter((r) => r.error).map((r) => `${r.label}:\n${r.error}`);
  return {
    id: variant.id,
    hosting,
    description: variant.description,
    runs,
    must: union(runs.map((r) => r.must)),
    should: union(runs.map((r) => r.should)),
    seconds: Math.round((Date.now() - started) / 100) / 10,
    ...(errors.length > 0 ? { error: errors.join("\n") } : {}),
  };
}

/** The variant whose SHOULD failures the others are shown against: the spec-only implementation with the profile's choices. */
const baseline = "profile-choices";

/**
 * The Markdown table of the variant runs: one row per variant, both hosting kinds side by side. The baseline's
 * SHOULD failures are listed in full; another variant's as the ones it adds (+) and removes (−) against the baseline.
 */
export function variantTable(outcomes: VariantOutcome[]): string {
  const ids = [...new Set(outcomes.map((o) => o.id))];
  const find = (id: string, hosting: Hosting) => outcomes.find((o) => o.id === id && o.hosting === hosting);
  const must = (o: VariantOutcome | undefined) =>
    !o ? "not run" : o.error ? "**no result**" : o.must.length === 0 ? "0" : `**${o.must.join(", ")}**`;
  const should = (o: VariantOutcome | undefined) => {
    if (!o) return "not run";
    const base = o.id === baseline ? undefined : find(baseline, o.hosting);
    if (!base) return o.should.join(", ") || "none";
    const added = o.should.filter((id) => !base.should.includes(id)).map((id) => `+${id}`);
    const removed = base.should.filter((id) => !o.should.includes(id)).map((id) => `−${id}`);
    return [...added, ...removed].join(", ") || `as ${baseline}`;
  };
  const rows = ids.map((id) => {
    const cloud = find(id, "cloud");
    const self = find(id, "self_hosted");
    const description = (cloud ?? self)?.description ?? "";
    const both =
      should(cloud) === should(self) ? should(cloud) : `cloud: ${should(cloud)}; self-hosted: ${should(self)}`;
    return `| ${id} | ${description} | ${must(cloud)} / ${must(self)} | ${both} |`;
  });
  return [
    `| Variant | What it changes | MUST failures (cloud / self-hosted) | SHOULD failures, expected (against ${baseline}) |`,
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
