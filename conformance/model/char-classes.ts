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

const asciiWord = fc.stringMatching(/^[a-z0-9]{1,6}$/);

/** A string holding characters of one class between ASCII words. */
function mixed(chars: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(asciiWord, fc.constantFrom(...chars)), { minLength: 1, maxLength: 3 })
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

/** A class and a text of it, drawn together so a counter-example names its class. */
export const classedText = (maxLength = 255): fc.Arbitrary<{ klass: CharacterClass; text: string }> =>
  fc.constantFrom(...characterClasses).chain((klass) => textOf(klass, maxLength).map((text) => ({ klass, text })));
