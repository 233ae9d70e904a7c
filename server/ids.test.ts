import { describe, expect, it } from "vitest";
import { newId } from "./ids.js";

describe("newId (D-90)", () => {
  it.each([
    { given: "the epoch", nowMs: 0, want: /^00000000-0000-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
    {
      given: "a time in 2026",
      nowMs: 0x019a_b3c4_d5e6,
      want: /^019ab3c4-d5e6-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    },
  ])("writes the milliseconds of $given first, then version 7 and the RFC 9562 variant", ({ nowMs, want }) => {
    expect(newId(nowMs)).toMatch(want);
  });

  it("sorts ids of later milliseconds after earlier ones, and never repeats", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => newId(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => newId(5))).size).toBe(1000);
  });
});
