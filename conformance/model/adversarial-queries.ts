/**
 * List queries with adversarial values (PROP-005, PROP-006, PROP-009, PROP-010): each generated input is one query per
 * value class (matching, letter case, special characters, percent-encodings, non-ASCII, unknown, malformed), scoped to
 * a set of deployments the property created, so that the answer restricted to that set can be judged by the model.
 */
import fc from "fast-check";
import { deploymentStatuses } from "../../contract/index.js";
import type { CharacterClass } from "../coverage/axes.js";
import type { ListQuery } from "./deployment-model.js";

/** What a query is drawn from: the set's names, ids and image tags. */
export interface QuerySet {
  /** The run prefix: a name_contains value always spans its end, so no other run's records match. */
  prefix: string;
  names: string[];
  ids: string[];
  tags: string[];
}

/** A generated query: the model's query, its value class per filter, and whether a valid target must refuse it. */
interface DrawnQuery {
  query: ListQuery;
  /** The (filter, value class) cells it exercises (conformance/coverage/axes.ts). */
  classes: [string, string][];
  /** D-07, D-25, D-44: a malformed value is 422. */
  malformed: boolean;
  /** The character class of a name_contains value. */
  text?: CharacterClass;
}

/** Characters no deployment name holds (D-37), of the value classes a filter is judged with, each with its character class. */
const foreign: Record<"special-characters" | "non-ascii", readonly [string, CharacterClass][]> = {
  "special-characters": [
    ["%", "query-specials"],
    ["_", "query-specials"],
    ["*", "query-specials"],
    ["?", "query-specials"],
    ["&", "query-specials"],
    ["+", "query-specials"],
    ["#", "query-specials"],
    ["=", "query-specials"],
    [" ", "ascii"],
    ["'", "quotes"],
    ['"', "quotes"],
    ["\\", "backslash"],
    [".", "ascii"],
    ["/", "query-specials"],
  ],
  "non-ascii": [
    ["é", "latin1"],
    ["ß", "latin1"],
    ["\u00a0", "latin1"],
    ["漢", "cjk"],
    ["😀", "astral-emoji"],
    ["e\u0301", "combining"],
    ["ש", "rtl"],
    ["\u200b", "zero-width"],
  ],
};

/** Swaps the letter case of every letter. */
const flipCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");

/** The value classes of a name_contains value. */
const nameClasses = [
  "matching",
  "letter-case",
  "special-characters",
  "percent-encoded",
  "non-ascii",
  "edge-whitespace",
  "another-field",
] as const;

/** Puts `inserted` into `value` after its `at`-th character (never at the very start or end). */
const insert = (value: string, inserted: string, at: number) => {
  const i = (at % Math.max(1, value.length - 1)) + 1;
  return `${value.slice(0, i)}${inserted}${value.slice(i)}`;
};

/** A name_contains value of a class: a substring of a name of the set spanning the end of the run prefix. */
function nameContains(set: QuerySet, klass: (typeof nameClasses)[number]): fc.Arbitrary<DrawnQuery> {
  return fc
    .tuple(fc.constantFrom(...set.names), fc.integer({ min: 1, max: 4 }), fc.nat(12), fc.nat(), fc.nat())
    .map(([name, back, forward, at, pick]): DrawnQuery => {
      const value = name.slice(set.prefix.length - back, Math.min(name.length, set.prefix.length + 2 + forward));
      const [char, text] =
        klass === "special-characters" || klass === "non-ascii"
          ? foreign[klass][pick % foreign[klass].length]!
          : [
              "",
              klass === "edge-whitespace"
                ? "edge-whitespace"
                : klass === "percent-encoded"
                  ? "query-specials"
                  : "ascii",
            ];
      const i = at % value.length;
      const changed = {
        matching: value,
        "letter-case": flipCase(value),
        "special-characters": insert(value, char, at),
        // one character written as its percent-encoding: a target that decodes twice finds the name
        "percent-encoded": `${value.slice(0, i)}%${value.charCodeAt(i).toString(16).toUpperCase()}${value.slice(i + 1)}`,
        "non-ascii": insert(value, char, at),
        // a target that trims the value finds the name
        "edge-whitespace": pick % 2 === 0 ? ` ${value}` : `${value}\u00a0`,
        // 8 characters of a deployment's id: a target that searches more than the name finds it
        "another-field": set.ids[pick % set.ids.length]!.slice(at % 28, (at % 28) + 8),
      }[klass];
      const cell =
        klass === "percent-encoded" || klass === "edge-whitespace"
          ? "special-characters"
          : klass === "another-field"
            ? "unknown-or-foreign"
            : klass;
      return {
        query: { name_contains: changed, limit: 100 },
        classes: [["name_contains", cell]],
        malformed: false,
        text: text as CharacterClass,
      };
    });
}

/** The value classes of a deployment_ids value; the malformed ones are each one bad item among good ones. */
const idClasses = ["matching", "letter-case", "unknown-or-foreign", "prefix", "malformed"] as const;

/** ids of the set in a class: as created, in upper case, with an unknown id, with a prefix of one, with a malformed one. */
function deploymentIds(set: QuerySet, klass: (typeof idClasses)[number]): fc.Arbitrary<DrawnQuery> {
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...set.ids), { minLength: 1, maxLength: set.ids.length }),
      fc.uuid({ version: 4 }),
      fc.integer({ min: 8, max: 35 }),
      fc.constantFrom("not-a-uuid", "{}", " ", "1", "%"),
    )
    .map(([ids, unknown, cut, shape]) => {
      const first = ids[0]!;
      const rest = ids.slice(1);
      const value = {
        matching: ids,
        "letter-case": ids.map((id) => id.toUpperCase()),
        "unknown-or-foreign": [...ids, unknown],
        prefix: [...rest, first.slice(0, cut)],
        malformed: [...rest, shape === "{}" ? `{${first}}` : shape === " " ? `${first} ` : shape],
      }[klass];
      const malformed = klass === "prefix" || klass === "malformed";
      return {
        query: { deployment_ids: value, limit: 100 },
        classes: [["deployment_ids", malformed ? "malformed" : klass]],
        malformed,
      };
    });
}

/** An image_version value of a class: a tag of the set as created, in another letter case, or with a foreign character. */
function imageVersion(set: QuerySet) {
  return fc
    .tuple(
      fc.constantFrom(...set.tags),
      fc.constantFrom("matching", "matching", "letter-case", "special-characters", "non-ascii"),
      fc.nat(),
    )
    .map(([tag, klass, pick]) => {
      if (klass === "matching") return { v: tag, k: klass };
      if (klass === "letter-case") return { v: flipCase(tag), k: klass };
      const chars = foreign[klass as keyof typeof foreign];
      return { v: insert(tag, chars[pick % chars.length]![0], pick), k: klass };
    });
}

/** Filters beside the scope, each absent or drawn from a value class; only valid ones when `validOnly`. */
function otherFilters(set: QuerySet, validOnly: boolean) {
  const either = <T>(valid: fc.Arbitrary<T>, malformed: fc.Arbitrary<T>) =>
    validOnly ? valid : fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: malformed, weight: 1 });
  const record = fc.record(
    {
      status: either(
        fc
          .uniqueArray(fc.constantFrom<string>(...deploymentStatuses), { minLength: 1, maxLength: 3 })
          .map((v) => ({ v, k: "matching" })),
        fc.constantFrom("ready", "RUNNING").map((s) => ({ v: [s], k: "malformed" })),
      ),
      image_version: imageVersion(set),
      remote_reconciled: either(
        fc.boolean().map((v): { v: boolean | string; k: string } => ({ v, k: "matching" })),
        fc.constantFrom("yes", "TRUE").map((v): { v: boolean | string; k: string } => ({ v, k: "malformed" })),
      ),
      deployment_type: either(
        fc.constantFrom("dev", "dev", "dev_free", "prod").map((v): { v: string; k: string } => ({ v, k: "matching" })),
        fc.constantFrom("DEV", "staging").map((v): { v: string; k: string } => ({ v, k: "malformed" })),
      ),
      tag_value_ids: fc.uuid({ version: 4 }).map((v) => ({ v: [v], k: "unknown-or-foreign" })),
    },
    { requiredKeys: [] },
  );
  return fc.constantFrom("none", "none", "some").chain((n) => (n === "none" ? fc.constant({}) : record));
}

/** Adds generated filters to a scoped query: AND-combined (D-45), each cell noted. */
function withFilters(scoped: fc.Arbitrary<DrawnQuery>, set: QuerySet, validOnly: boolean): fc.Arbitrary<DrawnQuery> {
  return fc.tuple(scoped, otherFilters(set, validOnly)).map(([drawn, filters]) => {
    const query: ListQuery = { ...drawn.query };
    const classes = [...drawn.classes];
    let malformed = drawn.malformed;
    for (const [key, { v, k }] of Object.entries(filters) as [string, { v: unknown; k: string }][]) {
      (query as Record<string, unknown>)[key] = v;
      classes.push([key, k]);
      malformed ||= k === "malformed";
    }
    if (classes.length > 1) for (const [key] of [...classes]) classes.push([key, "combined"]);
    return { query, classes, malformed };
  });
}

/** Each other filter alone with a valid value, scoped to the whole set by the stem its names share. */
function filtersAlone(set: QuerySet): fc.Arbitrary<DrawnQuery[]> {
  return fc
    .record({
      status: fc.uniqueArray(fc.constantFrom(...deploymentStatuses), { minLength: 1, maxLength: 3 }),
      image_version: fc.constantFrom(...set.tags),
      remote_reconciled: fc.boolean(),
      deployment_type: fc.constantFrom("dev", "dev", "dev_free", "prod"),
    })
    .map((values) =>
      Object.entries(values).map(([key, value]) => ({
        query: { name_contains: `${set.prefix}Pq`, [key]: value, limit: 100 },
        classes: [
          [key, "matching"],
          [key, "combined"],
          ["name_contains", "combined"],
        ],
        malformed: false,
      })),
    );
}

/**
 * One query per value class of name_contains and of deployment_ids, each with generated filters, and each other
 * filter alone (PROP-005, PROP-006, PROP-010).
 */
export function adversarialQueries(set: QuerySet, validOnly: boolean): fc.Arbitrary<DrawnQuery[]> {
  const ids = idClasses.filter((k) => !validOnly || (k !== "prefix" && k !== "malformed"));
  return fc
    .tuple(
      filtersAlone(set),
      ...nameClasses.map((k) => withFilters(nameContains(set, k), set, validOnly)),
      withFilters(accentFolded(set), set, validOnly),
      ...ids.map((k) => withFilters(deploymentIds(set, k), set, validOnly)),
    )
    .map(([alone, ...scoped]) => [...alone, ...scoped]);
}

/**
 * A needle of one or two characters of a name of the set (D-496), one that some name of the set lacks when there is
 * one (so a target that ignores a short needle shows it): other runs' names hold it too, so the query names the set's
 * ids as well, and the answer holds every deployment of the set whose name contains it.
 */
function shortNeedle(set: QuerySet, length: 1 | 2): fc.Arbitrary<DrawnQuery> {
  const pieces = [
    ...new Set(
      set.names.flatMap((n) => Array.from({ length: n.length - length + 1 }, (_, i) => n.slice(i, i + length))),
    ),
  ];
  const telling = pieces.filter((p) => set.names.some((n) => !n.toLowerCase().includes(p.toLowerCase())));
  return fc.constantFrom(...(telling.length > 0 ? telling : pieces)).map((needle) => {
    return {
      query: { name_contains: needle, deployment_ids: set.ids, limit: 100 },
      classes: [["name_contains", "matching"]],
      malformed: false,
      text: length === 1 ? "one-character" : "two-characters",
    };
  });
}

/**
 * A matching value with one letter given an acute accent (`a` to `á`): no name of the set holds it in any letter case,
 * and a target that folds accents finds the name (D-39: a case-insensitive substring, no other folding; D-496).
 */
function accentFolded(set: QuerySet): fc.Arbitrary<DrawnQuery> {
  return nameContains(set, "matching").chain((drawn) => {
    const value = drawn.query.name_contains!;
    const letters = [...value.matchAll(/[a-z]/gi)].map((m) => m.index);
    if (letters.length === 0) return fc.constant(drawn);
    return fc.constantFrom(...letters).map((i) => ({
      ...drawn,
      query: {
        ...drawn.query,
        name_contains: `${value.slice(0, i)}${`${value[i]}\u0301`.normalize("NFC")}${value.slice(i + 1)}`,
      },
      classes: [["name_contains", "non-ascii"]],
    }));
  });
}

/** One name_contains query per value class, alone, and needles of one and two characters (PROP-009). */
export function nameQueries(set: QuerySet): fc.Arbitrary<DrawnQuery[]> {
  return fc.tuple(...nameClasses.map((k) => nameContains(set, k)), shortNeedle(set, 1), shortNeedle(set, 2));
}
