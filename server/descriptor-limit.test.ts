/** The default connection cap from the descriptor limit (D-465). */
import { describe, expect, it } from "vitest";
import { fallbackMaxConnections, maxConnectionsFor, softDescriptorLimit } from "./descriptor-limit.js";

const limits = (soft: string, hard: string) =>
  "Limit                     Soft Limit           Hard Limit           Units     \n" +
  "Max processes             63422                63422                processes \n" +
  `Max open files            ${soft.padEnd(21)}${hard.padEnd(21)}files     \n`;

describe("softDescriptorLimit", () => {
  const cases = [
    { given: limits("1024", "1048576"), want: 1024 },
    { given: limits("20000", "20000"), want: 20_000 },
    { given: limits("unlimited", "unlimited"), want: undefined },
    { given: "", want: undefined },
  ];
  it.each(cases)("reads $want from /proc/self/limits", ({ given, want }) => {
    expect(softDescriptorLimit(given)).toBe(want);
  });
});

describe("maxConnectionsFor", () => {
  const cases = [
    { given: 1024, want: 768 },
    { given: 20_000, want: 18_000 },
    { given: 1_048_576, want: 943_718 },
    { given: 200, want: 1 },
    { given: undefined, want: fallbackMaxConnections },
  ];
  it.each(cases)("leaves headroom below $given descriptors: $want", ({ given, want }) => {
    expect(maxConnectionsFor(given)).toBe(want);
  });
});
