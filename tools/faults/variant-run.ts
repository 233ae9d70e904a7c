/** One suite run against a legal variant (tools/variants/), and the table of such runs (D-232). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResult } from "../../conformance/result.js";
import { demoFlags } from "../harness/demo-flags.js";
import type { Variant } from "../variants/catalog.js";
import { demoSeed } from "../variants/demo-seed.js";
import { profileChoices } from "../variants/knobs.js";
import { startVariantServer } from "../variants/server.js";

type Hosting = "cloud" | "self_hosted";

/** What a run against one variant in one hosting kind found. */
export interface VariantOutcome {
  id: string;
  hosting: Hosting;
  description: string;
  exitCode: number;
  /** Failing MUST checks: each one is a wrong check, since the variant is legal. */
  must: string[];
  /** Failing SHOULD checks: where the variant's choices differ from the profile, as expected. */
  should: string[];
  seconds: number;
  error?: string;
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

/** Starts the variant, runs the suite against it with `suite`, and stops it. */
export async function runVariant(
  variant: Variant,
  hosting: Hosting,
  suite: (flags: string[], reportDir: string) => Promise<{ code: number; result?: RunResult; output: string }>,
): Promise<VariantOutcome> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "conformance-variant-"));
  const server = await startVariantServer({ ...profileChoices, ...variant.knobs, hosting }, demoSeed());
  try {
    const { code, result, output } = await suite(variantFlags(variant, server.url, hosting), dir);
    const failing = (result?.verdicts ?? []).filter((v) => v.status === "fail");
    return {
      id: variant.id,
      hosting,
      description: variant.description,
      exitCode: code,
      must: failing.filter((v) => v.level === "MUST").map((v) => v.id),
      should: failing.filter((v) => v.level === "SHOULD").map((v) => v.id),
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(result && code !== 2 ? {} : { error: output.slice(-2000) }),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Markdown table of the variant runs: one row per variant, both hosting kinds side by side. */
export function variantTable(outcomes: VariantOutcome[]): string {
  const ids = [...new Set(outcomes.map((o) => o.id))];
  const cell = (o: VariantOutcome | undefined, what: "must" | "should") => {
    if (!o) return "not run";
    if (what === "must") return o.error ? "**no result**" : o.must.length === 0 ? "0" : `**${o.must.join(", ")}**`;
    return o.should.join(", ") || "none";
  };
  const rows = ids.map((id) => {
    const cloud = outcomes.find((o) => o.id === id && o.hosting === "cloud");
    const self = outcomes.find((o) => o.id === id && o.hosting === "self_hosted");
    const description = (cloud ?? self)?.description ?? "";
    const should =
      cell(cloud, "should") === cell(self, "should")
        ? cell(cloud, "should")
        : `cloud: ${cell(cloud, "should")}; self-hosted: ${cell(self, "should")}`;
    return `| ${id} | ${description} | ${cell(cloud, "must")} / ${cell(self, "must")} | ${should} |`;
  });
  return [
    "| Variant | What it changes | MUST failures (cloud / self-hosted) | SHOULD failures (expected) |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
