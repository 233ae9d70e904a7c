/**
 * The first phase of the mutation run (D-360): the conformance suite through its vitest adapter, over HTTP against
 * each target (reference server on SQLite and on PostgreSQL, sandbox) and hosting kind; it imports no server code.
 * MUTATION_TARGETS (e.g. `reference-sqlite:cloud,sandbox:self_hosted`) narrows the runs; every one by default.
 */
import { describe } from "vitest";
import { conformanceTests } from "../../conformance/vitest-adapter.js";
import { demo } from "../../contract/index.js";
import { startedBeforeAll } from "../../server/testing/started-before-all.js";
import type { ListeningTarget, TargetKind } from "./targets.js";

type Hosting = "cloud" | "self_hosted";
const allRuns = ["reference-sqlite", "reference-postgres", "sandbox"].flatMap((kind) =>
  ["cloud", "self_hosted"].map((hosting) => `${kind}:${hosting}`),
);
const runs = process.env.MUTATION_TARGETS ? process.env.MUTATION_TARGETS.split(",") : allRuns;

for (const run of runs) {
  if (!allRuns.includes(run)) throw new Error(`MUTATION_TARGETS: '${run}' is none of ${allRuns.join(", ")}`);
  const [kind, hosting] = run.split(":") as [TargetKind, Hosting];
  describe(`${kind} ${hosting}`, () => {
    let target: ListeningTarget | undefined;
    let readyAfterMs = 0;
    // the targets' modules load here, not with this file: a static mutant that throws while they load, or keeps a
    // target from starting, then fails every check instead of leaving a file that never loaded (counted as passing)
    startedBeforeAll(async () => {
      const targets = await import("./targets.js");
      readyAfterMs = targets.readyAfterMs;
      target = await targets.startTarget(kind, hosting);
      return target;
    });
    conformanceTests(() => {
      if (!target) throw new Error("the target did not start");
      return {
        baseUrl: target.baseUrl,
        apiKey: demo.acme.apiKey,
        otherApiKey: demo.globex.apiKey,
        otherTenantId: demo.acme.stagingTenantId,
        integrationId: demo.acme.plainIntegrationId,
        managedIntegrationId: demo.acme.managedIntegrationId,
        codehostTag: demo.acme.codehostTag,
        hosting,
        // one seed: a mutant meets the same generated inputs on every run, so its verdict does not flicker
        seed: 360,
        // the target's provisioning delay, with room for a loaded machine
        settleMs: readyAfterMs * 40,
        fuzzRuns: Number(process.env.MUTATION_FUZZ_RUNS ?? 100),
        stateRuns: Number(process.env.MUTATION_STATE_RUNS ?? 25),
        // the sandbox accepts any non-empty API key by design (D-79), as in npm run conformance:reference
        ...(kind === "sandbox" ? { skip: ["AUTH-002", "EDGE-014"] } : {}),
      };
    });
  });
}
