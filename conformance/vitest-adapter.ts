/**
 * The optional vitest adapter (`deployment-conformance/vitest`): one vitest test per check, inside the
 * implementer's own vitest suite, with the verdicts the command gives (a skipped check is a skipped test).
 */
import { describe, test } from "vitest";
import { areas } from "./checks/index.js";
import { type ConformanceOptions, configFromObject, type RunConfig } from "./cli/run-config.js";
import { newRunId } from "./model/data.js";
import { failureText } from "./report/text.js";
import { isSelected } from "./runner/check-selection.js";
import { checkTimeoutMs, runCheck } from "./runner/runner.js";
import type { Fixtures } from "./runner/runtime.js";

/**
 * Registers the suite's checks as vitest tests, one `describe` per area, in the command's order.
 * `options` holds the config file's keys (`{ baseUrl, apiKey, otherApiKey, only, ... }`); give a
 * function when the target starts in a `beforeAll` (it is called when the first check runs). The
 * selection (level, only, skip) of a plain object picks the tests registered; a function's picks
 * the ones that run, the others are skipped. Run the file with no file parallelism: the checks write.
 */
export function conformanceTests(options: ConformanceOptions | (() => ConformanceOptions)): void {
  let config: RunConfig | undefined;
  const runConfig = (): RunConfig => {
    config ??= withRunIdentity(typeof options === "function" ? options() : options);
    return config;
  };
  const selection = typeof options === "function" ? undefined : runConfig();
  const runFixtures: Fixtures = new Map();
  for (const [area, checks] of Object.entries(areas)) {
    const registered = selection ? checks.filter((c) => isSelected(c, selection)) : checks;
    if (registered.length === 0) continue;
    describe.sequential(area, () => {
      const fixtures: Fixtures = new Map();
      for (const check of registered)
        test(
          `${check.id} [${check.level}] ${check.statement}`,
          async (t) => {
            const run = runConfig();
            if (!isSelected(check, run)) t.skip("not selected (level, only, skip)");
            const verdict = await runCheck(check, area, run, fixtures, runFixtures);
            if (verdict.status === "skip") t.skip(verdict.skipReason);
            if (verdict.status === "fail")
              throw new Error(`${check.id} failed (seed ${run.seed})\n${failureText(verdict)}`);
          },
          // the runner's own bound comes first and names the check
          checkTimeoutMs + 5_000,
        );
    });
  }
}

/** The validated options plus a run id and a seed (the seed given, else a random one printed in every failure). */
function withRunIdentity(options: ConformanceOptions): RunConfig {
  const config = configFromObject(options);
  return { ...config, runId: newRunId(), seed: config.seed ?? Math.floor(Math.random() * 2 ** 31) };
}

export type { ConformanceOptions } from "./cli/run-config.js";
