import { describe, expect, it } from "vitest";
import { sharedCacheMayStore } from "./shared-cache.js";

describe("sharedCacheMayStore", () => {
  it.each([
    { given: { "cache-control": "no-store" }, key: "x-api-key", want: undefined },
    { given: { "cache-control": "private, max-age=60" }, key: "x-api-key", want: undefined },
    { given: { "cache-control": "max-age=60", vary: "Accept, X-Api-Key" }, key: "x-api-key", want: undefined },
    { given: { "cache-control": "public, max-age=300" }, key: "x-api-key", want: /fresh for every caller/ },
    { given: { "cache-control": "s-maxage=10" }, key: "authorization", want: /fresh for every caller/ },
    { given: { "cache-control": "max-age=60" }, key: "authorization", want: undefined },
    { given: { "cache-control": "no-cache" }, key: "x-api-key", want: undefined },
    { given: { "cache-control": "max-age=0" }, key: "x-api-key", want: undefined },
    { given: {}, key: "x-api-key", want: /heuristic freshness/ },
    { given: {}, key: "authorization", want: undefined },
    { given: { vary: "*" }, key: "x-api-key", want: undefined },
    {
      given: { expires: "Thu, 01 Jan 2099 00:00:00 GMT", date: "Sat, 28 Nov 2026 12:00:00 GMT" },
      key: "x-api-key",
      want: /Expires/,
    },
    {
      given: { expires: "0", date: "Sat, 28 Nov 2026 12:00:00 GMT" },
      key: "x-api-key",
      want: undefined,
    },
  ])("$given with the key in $key: $want", ({ given, key, want }) => {
    const got = sharedCacheMayStore(given as Record<string, string>, key);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });
});
