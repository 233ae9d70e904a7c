import { describe, expect, it } from "vitest";
import { notKept } from "./kept-json.js";

describe("notKept", () => {
  it.each([
    { given: { got: { a: 1, b: { c: "x" } }, sent: { b: { c: "x" }, a: 1 } }, want: [] },
    { given: { got: { a: 1, added: true }, sent: { a: 1 } }, want: [] },
    { given: { got: [{ name: "v", mode: 420 }], sent: [{ name: "v" }] }, want: [] },
    { given: { got: { a: {} }, sent: { a: { b: 1 } } }, want: ["a.b: sent 1, left out"] },
    { given: { got: { a: "7" }, sent: { a: 7 } }, want: ['a: sent 7, got "7"'] },
    { given: { got: { a: [2, 1] }, sent: { a: [1, 2] } }, want: ["a[0]: sent 1, got 2", "a[1]: sent 2, got 1"] },
    { given: { got: { a: [1] }, sent: { a: [1, 1] } }, want: ["a: sent [1,1], got [1]"] },
    { given: { got: { a: null }, sent: { a: {} } }, want: ["a: sent an object, got null"] },
    { given: { got: { a: "true" }, sent: { a: "true" } }, want: [] },
  ])("$given.sent read back as $given.got", ({ given, want }) => {
    expect(notKept(given.got, given.sent)).toEqual(want);
  });
});
