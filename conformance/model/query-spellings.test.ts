/** Every spelling of a query decodes to the same parameters; a spelling equal to the plain one is left out. */
import { describe, expect, it } from "vitest";
import { decoded, spellings } from "./query-spellings.js";

const sort = (entries: [string, string][]) => [...entries].sort(([a], [b]) => a.localeCompare(b));

describe("spellings", () => {
  it.each([
    {
      given: [["limit", "2"]] as [string, string][],
      want: ["as written", "names percent-encoded", "values percent-encoded", "lower-case hex"],
    },
    {
      given: [
        ["deployment_ids", "a1,b2"],
        ["name_contains", "x y é"],
      ] as [string, string][],
      want: [
        "as written",
        "names percent-encoded",
        "values percent-encoded",
        "lower-case hex",
        "comma literal",
        "space as %20",
        "parameters reordered",
      ],
    },
  ])("$given", ({ given, want }) => {
    const got = spellings(given);
    expect(got.map((s) => s.spelling)).toEqual(want);
    for (const { query } of got) expect(sort(decoded(query))).toEqual(sort(given));
  });

  it("encodes names byte by byte in upper-case hex", () => {
    expect(spellings([["limit", "2"]])[1]!.query).toBe("%6C%69%6D%69%74=2");
  });
});
