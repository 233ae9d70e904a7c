/** Tests of the JSONTestSuite corpus as the suite sends it: its classes, what is left out, and the sample per seed. */
import { describe, expect, it } from "vitest";
import { corpusSample, type JsonCaseKind, jsonCorpus, parses, sampleSizes } from "./json-corpus.js";

describe("jsonCorpus", () => {
  const cases: { given: JsonCaseKind; wantParse: boolean | undefined; atLeast: number }[] = [
    { given: "reject", wantParse: false, atLeast: 150 },
    { given: "accept", wantParse: true, atLeast: 80 },
    { given: "free", wantParse: undefined, atLeast: 20 },
  ];
  for (const c of cases)
    it(`keeps ${c.given} texts a strict parser agrees with, none read lossily`, () => {
      const of = jsonCorpus.filter((x) => x.kind === c.given);
      expect(of.length).toBeGreaterThanOrEqual(c.atLeast);
      for (const x of of) {
        expect(x.text).not.toContain("\ufffd");
        if (c.wantParse !== undefined) expect(parses(x.text), x.name).toBe(c.wantParse);
      }
    });
});

describe("corpusSample", () => {
  const cases: { given: string; kind: JsonCaseKind; names: RegExp[] }[] = [
    {
      given: "the lenient parses every run sends",
      kind: "reject",
      names: [
        /^n_object_trailing_comment$/,
        /^n_object_trailing_comma$/,
        /^n_object_single_quote$/,
        /^n_object_unquoted_key$/,
      ],
    },
    { given: "a comment inside a string, which is JSON", kind: "accept", names: [/^y_string_comments$/] },
  ];
  for (const c of cases)
    it(`sends ${c.given} whatever the seed`, () => {
      for (const seed of [1, 2, 3]) {
        const names = corpusSample(c.kind, seed, false).map((x) => x.name);
        for (const name of c.names)
          expect(
            names.some((n) => name.test(n)),
            `${name} at seed ${seed}`,
          ).toBe(true);
      }
    });

  for (const kind of ["reject", "accept", "free"] as const) {
    it(`draws the same ${kind} sample from one seed and another from another`, () => {
      const names = (seed: number) => corpusSample(kind, seed, false).map((x) => x.name);
      expect(names(42)).toEqual(names(42));
      expect(names(42)).not.toEqual(names(43));
    });
    it(`sends every ${kind} text when asked, more than a sample`, () => {
      const all = corpusSample(kind, 1, true);
      expect(all).toEqual(jsonCorpus.filter((x) => x.kind === kind));
      expect(corpusSample(kind, 1, false).length).toBeLessThan(all.length);
      expect(corpusSample(kind, 1, false).length).toBeGreaterThanOrEqual(sampleSizes[kind]);
    });
  }
});
