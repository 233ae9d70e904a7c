/** The order of a shuffled run (D-222): a Fisher-Yates shuffle driven by a small seeded generator, so a seed names one order. */

import { seededRandom } from "../../common/seeded-random.js";

/** A new array holding `items` in the order the seed draws (the argument is not changed). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
