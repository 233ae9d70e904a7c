/** One part of the fault catalogue, so that CI judges a part per commit within its time (D-232). */

/** A part `k` of `n` (1-based), read from `--shard k/n`. */
interface Shard {
  k: number;
  n: number;
}

/** Reads `k/n`; throws unless 1 <= k <= n. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const k = Number(match?.[1]);
  const n = Number(match?.[2]);
  if (!match || k < 1 || k > n) throw new Error(`--shard must be k/n with 1 <= k <= n, got '${text}'`);
  return { k, n };
}

/** The items of part `k` of `n`: every n-th, from the k-th. */
export function inShard<T>(items: readonly T[], shard: Shard): T[] {
  return items.filter((_, index) => index % shard.n === shard.k - 1);
}
