/**
 * Text of every class of character, generated with fast-check: each class a set of characters mixed into a short
 * ASCII word, so that every string field and filter is judged with it. No class holds U+0000 or a lone surrogate,
 * which the interface cannot carry as text (D-111).
 */
import fc from "fast-check";
import { type CharacterClass, characterClasses } from "../coverage/axes.js";

/** The classes built from the others: by their length or their frame, not by their characters. */
type Built = "long" | "edge-whitespace" | "one-character" | "two-characters" | "at-bound";

/** The characters of each class but the built ones. */
const samples: Record<Exclude<CharacterClass, Built>, readonly string[]> = {
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
  // NFKC folds each of these to another character (a ligature, full width, a circled digit, a superscript, the
  // Kelvin and Ohm signs, a Roman numeral, a unit square): a server that normalizes for compatibility changes them
  compatibility: ["ﬁ", "Ａ", "１", "①", "²", "\u212a", "\u2126", "Ⅻ", "㎏", "ｶ"],
  // the same text in its composed and decomposed forms (NFC, NFD), and characters NFC itself replaces (the Angstrom
  // sign, a Greek question mark, a precomposed Hangul syllable beside its jamo)
  normalization: ["\u00c5", "A\u030a", "\u212b", "\u037e", "\u1e0d\u0307", "\ud55c", "\u1112\u1161\u11ab"],
};

/** Single code points of every class, none of them whitespace (a value of one blank character says nothing new). */
const singles = [...new Set(Object.values(samples).flat())].filter((c) => [...c].length === 1 && !/\s/u.test(c));

/** Code points of the Basic Multilingual Plane from several classes, to fill a value exactly to its bound. */
const fillers = ["a", "é", "漢", "ש", "\u200b", "ﬁ", "\u0301", "~"];

const asciiWord = fc.stringMatching(/^[a-z0-9]{1,4}$/);

/** A string holding characters of one class between ASCII words. */
function mixed(chars: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(asciiWord, fc.constantFrom(...chars)), { minLength: 1, maxLength: 2 })
    .chain((parts) => asciiWord.map((tail) => parts.map(([w, c]) => `${w}${c}`).join("") + tail));
}

/** Whitespace a value may begin or end with (ASCII and beyond). */
const edgeSpaces = ["  ", " ", "\t", "\u00a0", "\u3000", "\u2003"];

/** Text of a class; `maxLength` bounds `long` in code points (a field's bound, D-31) and is the length of `at-bound`. */
export function textOf(klass: CharacterClass, maxLength = 255): fc.Arbitrary<string> {
  if (klass === "one-character") return fc.constantFrom(...singles);
  if (klass === "two-characters")
    return fc.tuple(fc.constantFrom(...singles), fc.constantFrom(...singles)).map(([a, b]) => a + b);
  if (klass === "at-bound")
    return fc
      .array(fc.constantFrom(...fillers), { minLength: maxLength - 1, maxLength: maxLength - 1 })
      .map((parts) => `x${parts.join("")}`);
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

/** The classes mixed into one composite value: the character classes of before D-374, framed by `edge-whitespace`. */
const innerClasses = characterClasses.filter(
  (k): k is Exclude<CharacterClass, Built | "compatibility" | "normalization"> =>
    ![
      "long",
      "edge-whitespace",
      "one-character",
      "two-characters",
      "at-bound",
      "compatibility",
      "normalization",
    ].includes(k),
);

/**
 * One value holding every character class at once (a text of each, then whitespace at both edges), or else one of the
 * other shapes (D-374): a long one, the compatibility and normalization forms, one or two characters, or exactly the
 * field's `bound` in code points (when it has one). A single create judges a field with every class of a draw, and a
 * counter-example shrinks to the class that broke.
 */
export const compositeText = (
  maxLength = 255,
  bound?: number,
): fc.Arbitrary<{ classes: CharacterClass[]; text: string }> =>
  fc.oneof(
    {
      weight: 1,
      arbitrary: fc
        .tuple(textOf("compatibility"), textOf("normalization"))
        .map(([a, b]) => ({ classes: ["compatibility" as const, "normalization" as const], text: `${a}${b}` })),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        textOf("one-character").map((text) => ({ classes: ["one-character" as const], text })),
        textOf("two-characters").map((text) => ({ classes: ["two-characters" as const], text })),
      ),
    },
    ...(bound === undefined
      ? []
      : [
          { weight: 1, arbitrary: textOf("at-bound", bound).map((text) => ({ classes: ["at-bound" as const], text })) },
        ]),
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
