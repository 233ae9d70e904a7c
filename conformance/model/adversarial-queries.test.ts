/** Tests of the adversarial list queries: every value class per input, malformed flags, and values scoped to the set. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adversarialQueries, nameQueries, type QuerySet } from "./adversarial-queries.js";

const set: QuerySet = {
  prefix: "cf-abc123-",
  names: ["cf-abc123-Pq0Alpha", "cf-abc123-Pq1beta", "cf-abc123-Pq3delta-X"],
  ids: ["0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b", "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c"],
  tags: ["Latest-RC", "1.0"],
};
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe("nameQueries", () => {
  it("draws one value per class, each spanning the end of the run prefix but a piece of an id", () => {
    for (const drawn of fc.sample(nameQueries(set), { numRuns: 30, seed: 5 })) {
      expect(drawn.map((d) => d.classes[0]![1])).toEqual([
        "matching",
        "letter-case",
        "special-characters",
        "special-characters",
        "non-ascii",
        "special-characters",
        "unknown-or-foreign",
        "matching",
        "matching",
      ]);
      const piece = drawn.at(-3)!.query.name_contains!;
      expect(piece).toHaveLength(8);
      expect(set.ids.some((id) => id.includes(piece))).toBe(true);
      expect(set.names.some((n) => n.toLowerCase().includes(piece))).toBe(false);
      const [matching, upper] = drawn.map((d) => d.query.name_contains!);
      expect(set.names.some((n) => n.includes(matching!))).toBe(true);
      expect(set.names.some((n) => n.includes(upper!))).toBe(false);
      expect(set.names.some((n) => n.toLowerCase().includes(upper!.toLowerCase()))).toBe(true);
      for (const d of drawn.slice(2, -3))
        expect(set.names.some((n) => n.toLowerCase().includes(d.query.name_contains!.toLowerCase()))).toBe(false);
    }
  });
});

describe("nameQueries short needles", () => {
  it("draws one and two characters of a name of the set, scoped to the set's ids (D-496)", () => {
    for (const drawn of fc.sample(nameQueries(set), { numRuns: 30, seed: 6 })) {
      const [one, two] = drawn.slice(-2);
      expect([one!.text, two!.text]).toEqual(["one-character", "two-characters"]);
      for (const [d, length] of [
        [one!, 1],
        [two!, 2],
      ] as const) {
        expect([...d.query.name_contains!]).toHaveLength(length);
        expect(set.names.some((n) => n.includes(d.query.name_contains!))).toBe(true);
        // some name lacks it, so a target that ignores a short needle returns too much
        expect(set.names.some((n) => !n.toLowerCase().includes(d.query.name_contains!.toLowerCase()))).toBe(true);
        expect(d.query.deployment_ids).toEqual(set.ids);
      }
    }
  });
});

describe("adversarialQueries", () => {
  it.each([
    { validOnly: true, malformedAllowed: false },
    { validOnly: false, malformedAllowed: true },
  ])(
    "validOnly $validOnly: malformed only when allowed, and a query is malformed exactly when one of its values is",
    ({ validOnly, malformedAllowed }) => {
      for (const drawn of fc.sample(adversarialQueries(set, validOnly), { numRuns: 30, seed: 9 })) {
        for (const { query, malformed, classes } of drawn) {
          if (!malformedAllowed) expect(malformed).toBe(false);
          const badIds = (query.deployment_ids ?? []).some((id) => !uuid.test(id));
          if (badIds) expect(malformed).toBe(true);
          expect(malformed).toBe(classes.some(([, k]) => k === "malformed"));
          expect(query.limit).toBe(100);
        }
      }
    },
  );
});

describe("adversarialQueries accent-folded", () => {
  it("draws a value with an accented letter that no name holds in any case, but holds once the accent is folded", () => {
    for (const drawn of fc.sample(adversarialQueries(set, true), { numRuns: 30, seed: 4 })) {
      // after the 4 other filters alone and the 7 classes of nameQueries
      const folded = drawn[11]!.query.name_contains;
      expect(folded?.normalize("NFD")).toMatch(/\u0301/);
      const plain = folded!.normalize("NFD").replace(/\p{M}/gu, "");
      expect(set.names.some((n) => n.toLowerCase().includes(folded!.toLowerCase()))).toBe(false);
      expect(set.names.some((n) => n.includes(plain))).toBe(true);
    }
  });
});
