import { describe, expect, it } from "vitest";
import { sameJson } from "./same-json.js";

describe("sameJson", () => {
  it.each([
    {
      given: [
        { a: 1, b: [1, { c: "x", d: null }] },
        { b: [1, { d: null, c: "x" }], a: 1 },
      ],
      want: true,
    },
    {
      given: [
        [{ name: "z" }, { name: "a" }],
        [{ name: "a" }, { name: "z" }],
      ],
      want: false,
    },
    { given: [[1, 1], [1]], want: false },
    { given: [{ a: undefined }, {}], want: false },
    { given: [{ a: null }, { a: 0 }], want: false },
    { given: [[], {}], want: false },
    { given: ["0.3", 0.3], want: false },
    { given: [0.3, 0.3], want: true },
  ])("$given.0 and $given.1: $want", ({ given, want }) => {
    expect(sameJson(given[0], given[1])).toBe(want);
    expect(sameJson(given[1], given[0])).toBe(want);
  });
});
