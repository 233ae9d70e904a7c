/** Runs Redocly CLI's own `diff` (experimental in 2.77) on two documents: the second opinion contract:check compares itself with (D-82). */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const root = resolve(import.meta.dirname, "..");
const run = promisify(execFile);

/** Redocly's verdict: the semver bump the changes need, and each change's rule and impact. */
interface RedoclyDiff {
  bump: "major" | "minor" | "patch" | "none";
  changes: Array<{ pointer: string; impact: string; rules: string[]; message: string }>;
}

/** Diffs two document texts with `redocly diff --format json` and its `diff-recommended` rules (off unless a config extends them). */
export async function redoclyDiff(beforeText: string, afterText: string): Promise<RedoclyDiff> {
  const dir = mkdtempSync(join(tmpdir(), "redocly-diff-"));
  try {
    writeFileSync(join(dir, "base.json"), beforeText);
    writeFileSync(join(dir, "revision.json"), afterText);
    writeFileSync(join(dir, "redocly.yaml"), "extends:\n  - diff-recommended\n");
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
