/**
 * Runs Redocly CLI's own `diff` (experimental in 2.77) on two documents: the second opinion contract:check compares itself
 * with (D-82). Each verdict is kept under node_modules/.cache/redocly-diff by the hash of what decides it (D-480).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const root = resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const cacheDir = join(root, "node_modules", ".cache", "redocly-diff");
const config = "extends:\n  - diff-recommended\n";
/** The installed CLI's version: a new Redocly may judge the same pair otherwise. */
const redoclyVersion = (
  JSON.parse(readFileSync(join(root, "node_modules", "@redocly", "cli", "package.json"), "utf8")) as { version: string }
).version;

/** Redocly's verdict: the semver bump the changes need, and each change's rule and impact. */
interface RedoclyDiff {
  bump: "major" | "minor" | "patch" | "none";
  changes: Array<{ pointer: string; impact: string; rules: string[]; message: string }>;
}

/**
 * Diffs two document texts with `redocly diff --format json` and its `diff-recommended` rules (off unless a config extends
 * them). A pair diffed before, by the same CLI version, is read from the cache: each run of the CLI costs about a second of CPU.
 */
export async function redoclyDiff(beforeText: string, afterText: string): Promise<RedoclyDiff> {
  const cached = cachePath(beforeText, afterText);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as RedoclyDiff;
  const diff = await runRedoclyDiff(beforeText, afterText);
  mkdirSync(cacheDir, { recursive: true });
  // Written whole, then renamed: a concurrent reader never sees half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(diff));
  renameSync(partial, cached);
  return diff;
}

/** Where the verdict on a pair is kept: named by the hash of the CLI's version, the config and both texts. */
export function cachePath(beforeText: string, afterText: string): string {
  const key = createHash("sha256")
    .update(JSON.stringify([redoclyVersion, config, beforeText, afterText]))
    .digest("hex");
  return join(cacheDir, `${key}.json`);
}

async function runRedoclyDiff(beforeText: string, afterText: string): Promise<RedoclyDiff> {
  const dir = mkdtempSync(join(tmpdir(), "redocly-diff-"));
  try {
    writeFileSync(join(dir, "base.json"), beforeText);
    writeFileSync(join(dir, "revision.json"), afterText);
    writeFileSync(join(dir, "redocly.yaml"), config);
    const args = [
      "diff",
      "--config",
      join(dir, "redocly.yaml"),
      "--format",
      "json",
      "--fail-on",
      "none",
      join(dir, "base.json"),
      join(dir, "revision.json"),
    ];
    const { stdout } = await run(join(root, "node_modules", ".bin", "redocly"), args, {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      bump?: RedoclyDiff["bump"];
      changes?: Array<{ path: string; impact: string; verdicts?: Array<{ ruleId: string; message: string }> }>;
    };
    return {
      bump: report.bump ?? "none",
      changes: (report.changes ?? []).map((change) => ({
        pointer: change.path,
        impact: change.impact,
        rules: (change.verdicts ?? []).map((verdict) => verdict.ruleId),
        message: (change.verdicts ?? []).map((verdict) => verdict.message).join(" "),
      })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
