/** Tests of the shared helpers: timestamps compared beyond milliseconds, record differences. */
import { describe, expect, it } from "vitest";
import { byteOrder } from "../checks/repositories.js";
import { differences, instant } from "./helpers.js";

describe("instant", () => {
  const cases: { given: string; later: string }[] = [
    { given: "2026-11-21T23:52:49.353100Z", later: "2026-11-21T23:52:49.353406Z" },
    { given: "2026-11-21T23:52:49Z", later: "2026-11-21T23:52:49.000001Z" },
    { given: "2026-11-21T23:52:49.9Z", later: "2026-11-21T23:52:50Z" },
    { given: "2026-11-22T00:52:49+01:00", later: "2026-11-21T23:52:49.5Z" },
  ];
  for (const c of cases) it(`${c.given} < ${c.later}`, () => expect(instant(c.given)! < instant(c.later)!).toBe(true));
  it("rejects what is not a timestamp", () => {
    expect(instant("yesterday")).toBeUndefined();
    expect(instant(42)).toBeUndefined();
  });
});

describe("differences", () => {
  it("lists nested differences and ignores fields not expected", () => {
    expect(differences({ a: 1, b: { c: "x", d: 2 }, e: 3 }, { a: 1, b: { c: "y" } })).toEqual([
      'b.c: expected "y", got "x"',
    ]);
    expect(differences({ a: null }, { a: { b: 1 } })).toEqual(["a: expected an object, got null"]);
  });
});

describe("byteOrder (D-08 repositories)", () => {
  const cases: { given: [string, string]; want: -1 | 0 | 1 }[] = [
    { given: ["Zeta", "alpha"], want: -1 },
    { given: ["acme", "acme"], want: 0 },
    { given: ["a-b", "a_b"], want: -1 },
    { given: ["\uffff", "\u{1f600}"], want: -1 },
    { given: ["é", "z"], want: 1 },
  ];
  for (const c of cases)
    it(`${c.given[0]} vs ${c.given[1]}`, () => expect(Math.sign(byteOrder(...c.given))).toBe(c.want));
});
