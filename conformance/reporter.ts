/** A vitest reporter that turns test results and task meta into per-check verdicts (pass / fail / skip with reason). */
import type { Reporter, TestModule } from "vitest/node";
import type { Verdict } from "./verdict.js";
import "./verdict.js";

export class VerdictCollector implements Reporter {
  readonly verdicts: Verdict[] = [];
  readonly errors: string[] = [];

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>,
  ): void {
    for (const module of testModules) {
      for (const e of module.errors()) this.errors.push(`${module.relativeModuleId}: ${e.message ?? String(e)}`);
      for (const test of module.children.allTests()) {
        const meta = test.meta().check;
        if (!meta) continue; // the placeholder of an area with no selected check
        const result = test.result();
        const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
        const status = result.state === "passed" ? "pass" : result.state === "failed" ? "fail" : "skip";
        const verdict: Verdict = { ...meta, status, durationMs };
        if (status === "skip") verdict.skipReason = (result.state === "skipped" && result.note) || "skipped";
        if (status === "fail" && !meta.failure)
          verdict.failure = { message: result.errors?.map((e) => e.message).join("; ") ?? "failed", error: true };
        this.verdicts.push(verdict);
      }
    }
    for (const e of unhandledErrors) this.errors.push(e.message ?? String(e));
  }
}
