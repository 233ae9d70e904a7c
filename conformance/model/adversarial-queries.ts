/**
 * List queries with adversarial values (PROP-005, PROP-006, PROP-009, PROP-010): each filter drawn from a value class
 * (matching, letter case, special characters, non-ASCII, malformed, unknown), scoped to a set of deployments the
 * property created, so that the answer restricted to that set can be judged against the model.
 */
import fc from "fast-check";
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
export interface DrawnQuery {
  query: ListQuery;
  /** The (filter, value class) cells it exercises (conformance/coverage/axes.ts). */
  classes: [string, string][];
  /** D-07, D-25, D-44: a malformed value is 422. */
  malformed: boolean;
}

/** Characters no deployment name holds (D-37), of the classes a filter value is judged with. */
const foreign: Record<string, readonly string[]> = {
  "special-characters": ["%", "_", "*", "?", "&", "+", "#", "=", " ", "'", '"', "\\", "%2D", "%25", ".", "/"],
  "non-ascii": ["é", "ß", "漢", "😀", "e\u0301", "ש", "\u200b", "\u00a0"],
};

/** Swaps the letter case of every letter. */
const flipCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");

/** A value of a name in the set: a substring spanning the end of the run prefix, in some value class. */
function nameContains(set: QuerySet): fc.Arbitrary<{ value: string; klass: string }> {
  return fc
    .tuple(
      fc.constantFrom(...set.names),
      fc.integer({ min: 1, max: 4 }),
      fc.nat(12),
      fc.constantFrom("matching", "matching", "letter-case", "special-characters", "non-ascii"),
      fc.nat(),
      fc.nat(),
    )
    .map(([name, back, forward, klass, at, pick]) => {
      const start = set.prefix.length - back;
      const value = name.slice(start, Math.min(name.length, set.prefix.length + 2 + forward));
      if (klass === "matching") return { value, klass };
      if (klass === "letter-case") return { value: flipCase(value), klass };
      const chars = foreign[klass]!;
      const c = chars[pick % chars.length]!;
      // a dash written as its percent-encoding, or a foreign character put inside the value
      const dash = value.indexOf("-");
      const changed =
        c === "%2D" && dash >= 0
          ? `${value.slice(0, dash)}%2D${value.slice(dash + 1)}`
          : `${value.slice(0, (at % (value.length - 1)) + 1)}${c}${value.slice((at % (value.length - 1)) + 1)}`;
      return { value: changed, klass };
    });
}

const unknownId = fc.uuid({ version: 4 });

/** ids of the set, possibly with an unknown one, a malformed one, a prefix of one or one in upper case. */
function deploymentIds(set: QuerySet): fc.Arbitrary<{ ids: string[]; klass: string; malformed: boolean }> {
  const picked = fc.uniqueArray(fc.constantFrom(...set.ids), { minLength: 1, maxLength: set.ids.length });
  return fc
    .tuple(
      picked,
      fc.constantFrom("matching", "matching", "letter-case", "unknown-or-foreign", "malformed"),
      unknownId,
      fc.integer({ min: 8, max: 35 }),
      fc.constantFrom("prefix", "word", "braces", "spaces"),
    )
    .map(([ids, klass, unknown, cut, shape]) => {
      if (klass === "matching") return { ids, klass, malformed: false };
      if (klass === "letter-case") return { ids: ids.map((id) => id.toUpperCase()), klass, malformed: false };
      if (klass === "unknown-or-foreign") return { ids: [...ids, unknown], klass, malformed: false };
      const first = ids[0]!;
      const bad = { prefix: first.slice(0, cut), word: "not-a-uuid", braces: `{${first}}`, spaces: ` ${first}` }[shape];
      return { ids: [...ids.slice(1), bad], klass, malformed: true };
    });
}

/** An image_version value: a tag of the set, in some value class (D-42: an exact match). */
function imageVersion(set: QuerySet): fc.Arbitrary<{ value: string; klass: string }> {
  return fc
    .tuple(
      fc.constantFrom(...set.tags),
      fc.constantFrom("matching", "matching", "letter-case", "special-characters", "non-ascii"),
      fc.nat(),
    )
    .map(([tag, klass, pick]) => {
      if (klass === "matching") return { value: tag, klass };
      if (klass === "letter-case") return { value: flipCase(tag), klass };
      const chars = foreign[klass]!;
      return { value: `${tag.slice(0, -1)}${chars[pick % chars.length]}${tag.slice(-1)}`, klass };
    });
}

const statuses = ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"];

/** Filters beside the scope: each absent or drawn from a value class; only valid ones when `validOnly`. */
function otherFilters(set: QuerySet, validOnly: boolean) {
  return fc.record(
    {
      status: fc.oneof(
        fc.uniqueArray(fc.constantFrom(...statuses), { minLength: 1, maxLength: 3 }).map((v) => ({ v, k: "matching" })),
        ...(validOnly ? [] : [fc.constantFrom("ready", "RUNNING").map((s) => ({ v: [s], k: "malformed" }))]),
      ),
      image_version: imageVersion(set).map(({ value, klass }) => ({ v: value, k: klass })),
      remote_reconciled: fc.oneof(
        fc.boolean().map((v) => ({ v: v as boolean | string, k: "matching" })),
        ...(validOnly
          ? []
          : [fc.constantFrom("yes", "1", "TRUE").map((v) => ({ v: v as boolean | string, k: "malformed" }))]),
      ),
      deployment_type: fc.oneof(
        fc.constantFrom("dev", "dev", "dev_free", "prod").map((v) => ({ v, k: "matching" })),
        ...(validOnly ? [] : [fc.constantFrom("DEV", "staging").map((v) => ({ v, k: "malformed" }))]),
      ),
      tag_value_ids: unknownId.map((v) => ({ v: [v], k: "unknown-or-foreign" })),
    },
    { requiredKeys: [] },
  );
}

/** A query scoped to the set by name_contains or by deployment_ids, with other filters and a page. */
export function adversarialQueries(set: QuerySet, validOnly: boolean): fc.Arbitrary<DrawnQuery> {
  return fc
    .tuple(
      fc.boolean(),
      nameContains(set),
      deploymentIds(set),
      fc
        .constantFrom("none", "none", "one", "several")
        .chain((n) => (n === "none" ? fc.constant({}) : otherFilters(set, validOnly))),
    )
    .map(([byName, name, ids, filters]) => {
      const query: ListQuery = { limit: 100 };
      const classes: [string, string][] = [];
      let malformed = false;
      if (byName) {
        query.name_contains = name.value;
        classes.push(["name_contains", name.klass]);
      } else if (!validOnly || !ids.malformed) {
        query.deployment_ids = ids.ids;
        classes.push(["deployment_ids", ids.klass]);
        malformed ||= ids.malformed;
      } else {
        query.deployment_ids = set.ids;
        classes.push(["deployment_ids", "matching"]);
      }
      for (const [key, drawn] of Object.entries(filters) as [keyof ListQuery, { v: unknown; k: string }][]) {
        (query as Record<string, unknown>)[key] = drawn.v;
        classes.push([key, drawn.k]);
        malformed ||= drawn.k === "malformed";
      }
      if (classes.length > 1) for (const [key] of [...classes]) classes.push([key, "combined"]);
      return { query, classes, malformed };
    });
}

/** A query by name_contains alone, its value of any class (PROP-009). */
export function nameQueries(set: QuerySet): fc.Arbitrary<DrawnQuery> {
  return nameContains(set).map(({ value, klass }) => ({
    query: { name_contains: value, limit: 100 },
    classes: [["name_contains", klass]],
    malformed: false,
  }));
}
