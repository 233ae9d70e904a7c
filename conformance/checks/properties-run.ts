/** How the PROP-* properties run: seeded fast-check runs within the --fuzz-runs budget, a shrunk counter-example in the failure. */
import fc from "fast-check";
import { type AxisKey, cellNote } from "../coverage/axes.js";
import { type CheckContext, CheckFailure } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** Generated inputs per property: a twentieth of --fuzz-runs, at least 3 (each input sends one request per class). */
const propertyRuns = (ctx: CheckContext) => Math.max(3, Math.round(ctx.config.fuzzRuns / 20));

/**
 * Runs a seeded property over `arbitrary` and turns its shrunk counter-example into a CheckFailure that carries the
 * failing exchange and names the input (the runner adds the replay line: same seed, same inputs).
 */
export async function holdsFor<T>(
  ctx: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  runs: number = propertyRuns(ctx),
  timeLimitMs = 20_000,
): Promise<void> {
  let failing: Exchange | undefined;
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      try {
        await predicate(value);
      } catch (error) {
        failing = (error as { exchange?: Exchange }).exchange;
        throw error;
      }
    }),
    { seed: ctx.config.seed, numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false },
  );
  ctx.note(`${result.numRuns} generated inputs, seed ${ctx.config.seed}`);
  if (!result.failed) return;
  const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  if (result.errorInstance instanceof Error && !(result.errorInstance instanceof CheckFailure))
    throw result.errorInstance;
  throw new CheckFailure(
    `${cause}\nshrunk counter-example (seed ${ctx.config.seed}): ${JSON.stringify(result.counterexample?.[0])}`,
    failing,
  );
}

/** The cells each running check has noted already. */
const noted = new WeakMap<CheckContext, Set<string>>();

/** Records one cell of a coverage axis as judged by this check (conformance/coverage/axes.ts), once. */
export function reached(ctx: CheckContext, axis: AxisKey, row: string, column: string): void {
  const note = cellNote(axis, row, column);
  const seen = noted.get(ctx) ?? new Set<string>();
  noted.set(ctx, seen);
  if (seen.has(note)) return;
  seen.add(note);
  ctx.note(note);
}
