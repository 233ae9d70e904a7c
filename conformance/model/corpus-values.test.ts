/** Tests of the corpus values: each class present, storable, seeded, and each bound exactly in its byte class (D-495). */
import { describe, expect, it } from "vitest";
import { boundValues, corpusValues, digitsValue, normalizationForms, punctuatedValue } from "./corpus-values.js";
import { naughtySample, naughtySampleSize, naughtyStrings } from "./naughty-strings.js";

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("naughtySample", () => {
  it("draws the same strings from the same seed, others from another, all of them on demand", () => {
    expect(naughtySample(3, false)).toEqual(naughtySample(3, false));
    expect(naughtySample(3, false)).toHaveLength(naughtySampleSize);
    expect(naughtySample(3, false)).not.toEqual(naughtySample(4, false));
    expect(naughtySample(3, true)).toEqual(naughtyStrings);
  });

  it("keeps only text the interface carries: no NUL, no lone surrogate (D-111), each string once", () => {
    expect(naughtyStrings.length).toBeGreaterThan(400);
    expect(new Set(naughtyStrings).size).toBe(naughtyStrings.length);
    for (const s of naughtyStrings) {
      expect(s.includes("\u0000")).toBe(false);
      expect(s).not.toMatch(loneSurrogate);
    }
  });
});

describe("corpusValues", () => {
  it.each([
    {
      empty: true,
      want: [
        "naughty-strings",
        "number-like",
        "inner-punctuation",
        "one-character",
        "two-characters",
        "normalization",
        "empty",
      ],
    },
    {
      empty: false,
      want: ["naughty-strings", "number-like", "inner-punctuation", "one-character", "two-characters", "normalization"],
    },
  ])("empty allowed $empty: makes $want", ({ empty, want }) => {
    for (const seed of [1, 2, 3]) {
      const values = corpusValues(seed, false, empty);
      expect([...new Set(values.map((v) => v.klass))]).toEqual(want);
      expect(values.some((v) => v.text === "")).toBe(empty);
      for (const { text } of values) expect(text).not.toMatch(loneSurrogate);
    }
  });

  it("gives one and two characters, number-like text, and four distinct normalization forms of one needle", () => {
    for (const seed of [5, 6, 7, 8]) {
      const values = corpusValues(seed, false, true);
      const of = (k: string) => values.filter((v) => v.klass === k).map((v) => v.text);
      expect([...of("one-character")[0]!]).toHaveLength(1);
      expect([...of("two-characters")[0]!]).toHaveLength(2);
      for (const n of of("number-like")) expect(n).toMatch(/^[-+]?\d+(\.\d+)?(e-?\d+)?$/);
      const forms = of("normalization");
      expect(new Set(forms).size).toBe(normalizationForms.length);
      for (const [i, form] of normalizationForms.entries()) expect(forms[i]!.normalize(form)).toBe(forms[i]);
    }
  });

  it("is the same for the same seed", () => {
    expect(corpusValues(9, false, true)).toEqual(corpusValues(9, false, true));
  });
});

describe("boundValues", () => {
  it.each([1, 2, 3, 4])("bound-%i-byte: the bound in code points, each of that many UTF-8 bytes", (bytes) => {
    for (const bound of [255, 1024]) {
      const { klass, text } = boundValues(11, bound)[bytes - 1]!;
      expect(klass).toBe(`bound-${bytes}-byte`);
      expect([...text]).toHaveLength(bound);
      expect(Buffer.byteLength(text, "utf8")).toBe(bound * bytes);
    }
  });
});

describe("digitsValue and punctuatedValue", () => {
  it.each([1, 2, 3])("seed %i: digits alone; `.`, `:` and an inner space, none at an edge", (seed) => {
    expect(digitsValue(seed)).toMatch(/^\d+$/);
    const p = punctuatedValue(seed);
    expect(p).toMatch(/^[a-z].*\..*:.* .*[a-z0-9]$/);
  });
});
