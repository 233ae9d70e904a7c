/**
 * The values every free string field is judged with besides the character classes (D-495): a sample of the Big List
 * of Naughty Strings and classes generated from the run's seed (number-like text, inner spaces and punctuation, one and
 * two characters of the list, the empty string where a field allows it, the four Unicode normalization forms of a
 * composed needle, and a field's bound in 1-, 2-, 3- and 4-byte characters).
 */
import fc from "fast-check";
import type { CharacterClass, CorpusClass } from "../coverage/axes.js";
import { naughtySample, naughtyStrings } from "./naughty-strings.js";

/** A value and the class it was made for (a row of the text axis). */
export interface CorpusValue {
  klass: CharacterClass | CorpusClass;
  text: string;
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);

/** Text a lenient parser reads as a number: a sign, leading zeros, a fraction, an exponent (`-0`, `007`, `1.50e-3`). */
const numberLikeText = fc
  .record({
    sign: fc.constantFrom("", "-", "+"),
    zeros: fc.nat(2),
    whole: fc.nat(99_999),
    fraction: fc.option(fc.nat(99), { nil: undefined }),
    exponent: fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
  })
  .map(
    ({ sign, zeros, whole, fraction, exponent }) =>
      `${sign}${"0".repeat(zeros)}${whole}${fraction === undefined ? "" : `.${fraction}`}${exponent === undefined ? "" : `e${exponent}`}`,
  );

/** Digits alone (`12345`): what a server that reads numbers out of strings coerces first. */
const digitsText = fc.integer({ min: 1, max: 99_999_999 }).map(String);

/** Words joined by `.`, `:`, an inner space and one more punctuation mark: never at an edge. */
const punctuatedText = fc
  .tuple(word, word, word, word, fc.constantFrom(",", ";", "/", "@", "+", "=", "|", "-", "_", "  "), word)
  .map(([a, b, c, d, mark, e]) => `${a}.${b}:${c} ${d}${mark}${e}`);

/** The code points of the list that are neither whitespace nor a control character, to make one- and two-character values. */
const corpusCharacters = [...new Set([...naughtyStrings.join("")])].filter((c) => !/[\s\p{Cc}]/u.test(c));

/** A composed letter (NFD splits it) and a compatibility character (NFKC replaces it): their four forms all differ. */
const composedNeedle = fc
  .tuple(word, fc.constantFrom("é", "Å", "ñ", "ö", "한", "ự"), fc.constantFrom("ﬁ", "①", "²", "Ａ", "㎏", "ｶ"))
  .map(([w, letter, compatible]) => `${w}${letter}${compatible}`);

/** The normalization forms every run sends, each of the same needle. */
export const normalizationForms = ["NFC", "NFD", "NFKC", "NFKD"] as const;

/** The number of UTF-8 bytes of each character of a byte class, and the code points it draws from. */
const byteRanges: Record<1 | 2 | 3 | 4, [number, number]> = {
  1: [0x61, 0x7a],
  2: [0x0430, 0x044f],
  3: [0x4e00, 0x9fa5],
  4: [0x1f600, 0x1f64f],
};

/** `bound` code points of one byte class (D-495: a bound counts code points, as JSON Schema's maxLength does). */
function atBound(bytes: 1 | 2 | 3 | 4, bound: number): fc.Arbitrary<string> {
  const [min, max] = byteRanges[bytes];
  return fc
    .array(fc.integer({ min, max }), { minLength: bound, maxLength: bound })
    .map((points) => String.fromCodePoint(...points));
}

const draw = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;

/** A number-like value of digits alone, for a field a server may coerce (a provider's client_id). */
export const digitsValue = (seed: number): string => draw(digitsText, seed);

/** A value with `.`, `:` and an inner space, for a field a server may give a pattern it does not have (provider_id). */
export const punctuatedValue = (seed: number): string => draw(punctuatedText, seed);

/** A field's bound in 1-, 2-, 3- and 4-byte characters, one value each. */
export function boundValues(seed: number, bound: number): CorpusValue[] {
  return ([1, 2, 3, 4] as const).map((bytes) => ({
    klass: `bound-${bytes}-byte` as const,
    text: draw(atBound(bytes, bound), seed + bytes),
  }));
}

/**
 * The values a run sends into a free string field with no bound: the list's sample (all of it with `all`), three
 * number-like texts, a punctuated one, one and two characters of the list, each normalization form of one needle, and
 * the empty string when the field allows it (`empty`).
 */
export function corpusValues(seed: number, all: boolean, empty: boolean): CorpusValue[] {
  const generated = draw(
    fc.record({
      digits: digitsText,
      numbers: fc.tuple(numberLikeText, numberLikeText),
      punctuated: punctuatedText,
      one: fc.constantFrom(...corpusCharacters),
      two: fc.tuple(fc.constantFrom(...corpusCharacters), fc.constantFrom(...corpusCharacters)),
      needle: composedNeedle,
    }),
    seed,
  );
  return [
    ...naughtySample(seed, all)
      .filter((text) => empty || text.trim() !== "")
      .map((text) => ({ klass: "naughty-strings" as const, text })),
    ...[generated.digits, ...generated.numbers].map((text) => ({ klass: "number-like" as const, text })),
    { klass: "inner-punctuation", text: generated.punctuated },
    { klass: "one-character", text: generated.one },
    { klass: "two-characters", text: generated.two.join("") },
    ...normalizationForms.map((form) => ({ klass: "normalization" as const, text: generated.needle.normalize(form) })),
    ...(empty ? [{ klass: "empty" as const, text: "" }] : []),
  ];
}
