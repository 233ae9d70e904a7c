/**
 * Text of every class of character, generated with fast-check: each class a set of characters mixed into a short
 * ASCII word, so that every string field and filter is judged with it. No class holds U+0000 or a lone surrogate,
 * which the interface cannot carry as text (D-111).
 */
import fc from "fast-check";
import { type CharacterClass, characterClasses } from "../coverage/axes.js";

/** The characters of each class but `long` and `edge-whitespace`, which are built from the others. */
const samples: Record<Exclude<CharacterClass, "long" | "edge-whitespace">, readonly string[]> = {
  ascii: ["a", "Z", "0", "9", "-", ".", "~", "!", "(", ")", "*", "$", "@", "^", "|", "{", "}", "[", "]", " "],
  latin1: ["é", "ß", "ñ", "Ø", "ü", "©", "¿", "\u00a0", "ÿ", "À"],
  cjk: ["漢", "字", "日本", "中文", "한", "ひ", "カ"],
  "astral-emoji": ["😀", "🚀", "👍🏽", "👨‍👩‍👧", "𝒜", "🇫🇷", "𠀀"],
  combining: ["e\u0301", "a\u0308", "n\u0303", "o\u0302\u0323", "\u0301"],
  rtl: ["שלום", "مرحبا", "\u200f", "\u202e", "ع"],
  "zero-width": ["\u200b", "\u200c", "\u200d", "\ufeff", "\u2060"],
  quotes: ['"', "'", "`", "“", "”", "«", "»"],
  backslash: ["\\", "\\\\", "\\n", "\\u0041", '\\"'],
  "query-specials": ["%", "&", "+", "#", "?", "=", "%20", "%2D", "_", ";", "/"],
};

const asciiWord = fc.stringMatching(/^[a-z0-9]{1,4}$/);

/** A string holding characters of one class between ASCII words. */
function mixed(chars: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(asciiWord, fc.constantFrom(...chars)), { minLength: 1, maxLength: 2 })
    .chain((parts) => asciiWord.map((tail) => parts.map(([w, c]) => `${w}${c}`).join("") + tail));
}

/** Whitespace a value may begin or end with (ASCII and beyond). */
const edgeSpaces = ["  ", " ", "\t", "\u00a0", "\u3000", "\u2003"];

/** Text of a class; `maxLength` bounds `long` in code points (a field's bound, D-31). */
export function textOf(klass: CharacterClass, maxLength = 255): fc.Arbitrary<string> {
  if (klass === "edge-whitespace")
    return fc
      .tuple(fc.constantFrom(...edgeSpaces), asciiWord, fc.constantFrom(...edgeSpaces))
      .map(([a, w, b]) => `${a}${w}${b}`);
  if (klass === "long") {
    const all = Object.values(samples).flat();
    return fc
      .array(fc.constantFrom(...all, "a", "b"), { minLength: 40, maxLength: 200 })
      .map((parts) => `x${parts.join("")}`)
      .map((s) => [...s].slice(0, Math.min(maxLength, 250)).join(""))
      .filter((s) => !/[\ud800-\udbff]$/.test(s));
  }
  return mixed(samples[klass]);
}

/** The classes mixed into one composite value: every class but `long` and `edge-whitespace`, which frame it. */
const innerClasses = characterClasses.filter((k) => k !== "long" && k !== "edge-whitespace");

/**
 * One value holding every class at once (a text of each, then whitespace at both edges), or, one time in five, a long
 * one: a single create then judges a field with every class, and a counter-example shrinks to the class that broke.
 */
export const compositeText = (maxLength = 255): fc.Arbitrary<{ classes: CharacterClass[]; text: string }> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...edgeSpaces),
          fc.tuple(...innerClasses.map((k) => textOf(k))),
          fc.constantFrom(...edgeSpaces),
        )
        .map(([lead, texts, trail]) => ({
          classes: [...innerClasses, "edge-whitespace" as const],
          text: `${lead}${texts.join("")}${trail}`,
        })),
    },
    { weight: 1, arbitrary: textOf("long", maxLength).map((text) => ({ classes: ["long" as const], text })) },
  );
