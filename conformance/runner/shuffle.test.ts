/** The order of a shuffled run: drawn from the seed, the same for the same seed, a permutation of what it is given. */
import { describe, expect, it } from "vitest";
import { shuffled } from "./shuffle.js";

const items = Array.from({ length: 20 }, (_, i) => i);

describe("shuffled", () => {
  it.each([1, 2, 3, 2 ** 31 - 1])("keeps every item once with seed %i", (seed) => {
    expect([...shuffled(items, seed)].sort((a, b) => a - b)).toEqual(items);
  });
  it("draws the same order from the same seed and another from another seed", () => {
    expect(shuffled(items, 7)).toEqual(shuffled(items, 7));
    expect(shuffled(items, 7)).not.toEqual(shuffled(items, 8));
    expect(shuffled(items, 7)).not.toEqual(items);
  });
  it("leaves its argument unchanged", () => {
    const given = [...items];
    shuffled(given, 5);
    expect(given).toEqual(items);
  });
});
