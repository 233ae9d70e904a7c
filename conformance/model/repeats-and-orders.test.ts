/** The shapes of a drawn array, and that the arbitrary makes every shape. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arrayShapes } from "../coverage/axes.js";
import { repeatsAndOrders, shapesOf } from "./repeats-and-orders.js";

const base = ["a", "b", "c", "d"];

describe("shapesOf", () => {
  it.each([
    { given: ["b"], want: ["one item"] },
    { given: ["a", "c"], want: ["distinct", "in creation order"] },
    { given: ["d", "b", "a"], want: ["distinct", "reversed"] },
    { given: ["b", "a", "c"], want: ["distinct", "shuffled"] },
    { given: ["a", "a"], want: ["repeated", "repeated adjacent"] },
    { given: ["c", "a", "c"], want: ["repeated", "shuffled"] },
  ])("$given → $want", ({ given, want }) => {
    expect(shapesOf(given, base)).toEqual(want);
  });
});

describe("repeatsAndOrders", () => {
  it("draws every shape of the axis from a few hundred samples, never an empty array, only items of the base", () => {
    const seen = new Set<string>();
    for (const drawn of fc.sample(repeatsAndOrders(base), { numRuns: 400, seed: 7 })) {
      expect(drawn.items.length).toBeGreaterThan(0);
      expect(drawn.items.every((item) => base.includes(item))).toBe(true);
      for (const shape of drawn.shapes) seen.add(shape);
    }
    expect([...seen].sort()).toEqual([...arrayShapes].sort());
  });
});
