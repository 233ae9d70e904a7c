/** Tests of the generated text: each class holds its characters, never NUL nor a lone surrogate (D-111), within its bound. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { characterClasses } from "../coverage/axes.js";
import { compositeText, textOf } from "./char-classes.js";

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A character each class's texts must show (at least one of). */
const marks: Record<string, RegExp> = {
  latin1: /[\u00a0-\u00ff]/,
  cjk: /[\u3040-\u9fff\uac00-\ud7af]/,
  "astral-emoji": /[\ud800-\udbff]/,
  combining: /[\u0300-\u036f]/,
  rtl: /[\u0590-\u06ff\u200f\u202e]/,
  "zero-width": /[\u200b-\u200d\u2060\ufeff]/,
  quotes: /["'`“”«»]/,
  backslash: /\\/,
  "query-specials": /[%&+#?=_;/]/,
  "edge-whitespace": /^\s|\s$/,
  compatibility: /[\ufb01\uff21\uff11\u2460\u00b2\u212a\u2126\u216b\u338f\uff76]/,
  normalization: /\u00c5|\u030a|\u212b|\u037e|\u1e0d|\ud55c|\u1112/,
};

/** The length in code points each length class gives (at-bound: the bound asked for, 255 here). */
const lengths: Record<string, number> = { "one-character": 1, "two-characters": 2, "at-bound": 255 };

describe("textOf", () => {
  it.each(characterClasses.map((k) => ({ k })))("$k: storable text of its class within 255 code points", ({ k }) => {
    for (const text of fc.sample(textOf(k), { numRuns: 50, seed: 7 })) {
      expect(text.includes(String.fromCharCode(0))).toBe(false);
      expect(text).not.toMatch(loneSurrogate);
      expect([...text].length).toBeLessThanOrEqual(255);
      if (marks[k]) expect(text).toMatch(marks[k]!);
      if (lengths[k] !== undefined) expect([...text].length).toBe(lengths[k]);
    }
  });
});

describe("compositeText", () => {
  it("makes every shape: every class at once, long, the forms, one or two characters, exactly the bound", () => {
    const seen = new Set(fc.sample(compositeText(255, 40), { numRuns: 200, seed: 5 }).flatMap((d) => d.classes));
    expect([...seen].sort()).toEqual([...characterClasses].sort());
  });

  it("makes no value at a bound for a field without one", () => {
    const seen = new Set(fc.sample(compositeText(), { numRuns: 200, seed: 5 }).flatMap((d) => d.classes));
    expect(seen.has("at-bound")).toBe(false);
  });

  it("holds every class with whitespace at both edges, or is one long text", () => {
    for (const { classes, text } of fc.sample(compositeText(), { numRuns: 50, seed: 3 })) {
      expect([...text].length).toBeLessThanOrEqual(255);
      expect(text).not.toMatch(loneSurrogate);
      if (classes.length < 3) expect(classes.includes("edge-whitespace")).toBe(false);
      else {
        expect(text).toMatch(/^\s.*\s$/su);
        for (const k of classes) if (marks[k]) expect(text).toMatch(marks[k]!);
      }
    }
  });
});
