/** The vitest configuration of the mutation run (D-360): the conformance suite over HTTP against listening targets, then the sandbox's own API, then restarts, volume and failures. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The sandbox's own API (sessions, `/__mock/state`, `/__mock/clock`, reset; D-79, D-114, D-320, D-321, D-395, D-396,
 * D-470, D-471) is no part of the interface, so no check of the suite judges it; its tests are the second phase:
 * over the sandbox's Node server (sandbox.test.ts, memory-sandbox-server.test.ts, sandbox-api.test.ts,
 * sandbox-sessions.test.ts, and mock-cors.test.ts for the preflights of its own API's PUT and DELETE), and through
 * what the stateful MSW handlers give a client team (sandbox-state.test.ts,
 * sandbox-state-parser.test.ts: requests to the fetch core, snapshot(), restore(), clock.advance()). The third, the
 * restart phase (restart.mutation.ts), restarts the reference server on each store, which no check can do. The
 * fourth, the volume phase (volume.mutation.ts), fills one organization past what a check may leave on a shared
 * target; the fifth, the failure phase (failure.mutation.ts), cuts the database, locks it from another process and
 * holds connections open.
 */
const sandboxPhase = [
  "mock/src/engine/sandbox.test.ts",
  "mock/src/engine/memory-sandbox-server.test.ts",
  "mock/src/engine/sandbox-api.test.ts",
  "mock/src/engine/sandbox-sessions.test.ts",
  "mock/src/engine/sandbox-state.test.ts",
  "mock/src/engine/sandbox-state-parser.test.ts",
  "mock/src/engine/mock-cors.test.ts",
];

/** The phases in the order they run. */
const phases: Record<string, string[]> = {
  conformance: ["tools/mutation/conformance.mutation.ts"],
  sandbox: sandboxPhase,
  restart: ["tools/mutation/restart.mutation.ts"],
  volume: ["tools/mutation/volume.mutation.ts"],
  failure: ["tools/mutation/failure.mutation.ts"],
};

/**
 * MUTATION_PHASES (e.g. `volume,failure`) runs some phases only: a run aimed at what they judge, whose kills hold
 * for the whole harness (no phase shares a target with another) but whose survivors say nothing and are not recorded.
 */
function chosenPhases(): string[] {
  const names = process.env.MUTATION_PHASES ? process.env.MUTATION_PHASES.split(",") : Object.keys(phases);
  return names.flatMap((name) => {
    const files = phases[name];
    if (!files) throw new Error(`MUTATION_PHASES: '${name}' is none of ${Object.keys(phases).join(", ")}`);
    return files;
  });
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: chosenPhases(),
    fileParallelism: false,
    // a mutant switched at run time needs no fresh module graph (the import is most of a run's time); a static
    // mutant does, so run.ts runs those in a second pass with isolation (D-360)
    isolate: process.env.MUTATION_ISOLATE !== "false",
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
