/**
 * A linearizability checker in the manner of Knossos and Porcupine (Wing & Gong's search with memoization, D-370):
 * given a history of operations with the times they were invoked and answered, it searches for one order of them,
 * consistent with real time (an operation answered before another was invoked comes first), in which a sequential
 * model accepts every operation with the output it had. Visited (linearized set, model state) pairs are not searched
 * again, so the search stays small for the short concurrent rounds the LAW-* checks send.
 */

/** One completed operation: what was asked, what came back, and when (any monotonic clock, the same for all). */
export interface Operation<I, O> {
  input: I;
  output: O;
  invokedAt: number;
  answeredAt: number;
}

/** The sequential specification: the state after applying one operation with its observed output, or undefined when the output is impossible there. */
export interface SequentialModel<S, I, O> {
  init: S;
  step(state: S, input: I, output: O): S | undefined;
  /** A string equal for equal states (the memoization key). */
  key(state: S): string;
}

/** The verdict: an order that explains every answer, none (with the longest prefix found), or a search cut at its budget. */
type Linearization =
  | { kind: "linearizable"; order: number[] }
  | { kind: "not-linearizable"; longestPrefix: number[] }
  | { kind: "unknown"; visited: number };

/** Searches the orders of `history` (at most 60 operations) for one the model accepts; `budget` bounds the states visited. */
export function linearize<S, I, O>(
  model: SequentialModel<S, I, O>,
  history: readonly Operation<I, O>[],
  budget = 200_000,
): Linearization {
  if (history.length > 60) throw new Error(`linearize takes at most 60 operations, got ${history.length}`);
  const all = (1n << BigInt(history.length)) - 1n;
  const seen = new Set<string>();
  let longest: number[] = [];
  let visited = 0;
  const order: number[] = [];

  /** The operations that may come next: not yet placed, and invoked before every unplaced one was answered. */
  const candidates = (done: bigint): number[] => {
    let firstAnswer = Number.POSITIVE_INFINITY;
    history.forEach((op, i) => {
      if ((done & (1n << BigInt(i))) === 0n) firstAnswer = Math.min(firstAnswer, op.answeredAt);
    });
    return history.flatMap((op, i) => ((done & (1n << BigInt(i))) === 0n && op.invokedAt <= firstAnswer ? [i] : []));
  };

  const search = (done: bigint, state: S): boolean | "budget" => {
    if (done === all) return true;
    const memo = `${done.toString(36)}|${model.key(state)}`;
    if (seen.has(memo)) return false;
    seen.add(memo);
    if (++visited > budget) return "budget";
    for (const i of candidates(done)) {
      const op = history[i]!;
      const next = model.step(state, op.input, op.output);
      if (next === undefined) continue;
      order.push(i);
      if (order.length > longest.length) longest = [...order];
      const found = search(done | (1n << BigInt(i)), next);
      if (found !== false) return found;
      order.pop();
    }
    return false;
  };

  const found = search(0n, model.init);
  if (found === "budget") return { kind: "unknown", visited };
  return found ? { kind: "linearizable", order: [...order] } : { kind: "not-linearizable", longestPrefix: longest };
}
