/** Given histories of concurrent creates and lists, the checker finds an order that explains them, or shows there is none. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linearize, type Operation } from "./linearizability.js";
import { type NamedInput, type NamedOutput, nameSetModel } from "./name-set-model.js";

type Op = Operation<NamedInput, NamedOutput>;
const create = (name: string, invokedAt: number, answeredAt: number, kind: NamedOutput["kind"] = "created"): Op => ({
  input: { kind: "create", name },
  output: kind === "listed" ? { kind, names: [] } : { kind },
  invokedAt,
  answeredAt,
});
const list = (names: string[], invokedAt: number, answeredAt: number): Op => ({
  input: { kind: "list" },
  output: { kind: "listed", names },
  invokedAt,
  answeredAt,
});

const cases: { given: string; history: Op[]; unique?: boolean; want: "linearizable" | "not-linearizable" }[] = [
  { given: "nothing", history: [], want: "linearizable" },
  {
    given: "a create, then a list that shows it",
    history: [create("a", 0, 1), list(["a"], 2, 3)],
    want: "linearizable",
  },
  {
    given: "a create, then a list that does not show it (a lost write)",
    history: [create("a", 0, 1), list([], 2, 3)],
    want: "not-linearizable",
  },
  {
    given: "a list overlapping a create may show it or not",
    history: [create("a", 0, 5), list([], 1, 2), list(["a"], 3, 4)],
    want: "linearizable",
  },
  {
    given: "two lists overlapping a create: shown, then not shown (a read going back)",
    history: [create("a", 0, 10), list(["a"], 1, 2), list([], 3, 4)],
    want: "not-linearizable",
  },
  {
    given: "a list showing a name nobody created",
    history: [create("a", 0, 1), list(["a", "b"], 2, 3)],
    want: "not-linearizable",
  },
  {
    given: "a refused create shown by a later list (half done)",
    history: [create("a", 0, 1, "refused"), list(["a"], 2, 3)],
    want: "not-linearizable",
  },
  {
    given: "concurrent creates of one name: one 2xx, one 409",
    history: [create("a", 0, 3), create("a", 1, 2, "conflict")],
    unique: true,
    want: "linearizable",
  },
  {
    given: "a 409 for a name nobody holds (a conflict without a conflicting name)",
    history: [create("a", 0, 3, "conflict"), create("b", 1, 2)],
    unique: true,
    want: "not-linearizable",
  },
  {
    given: "a 409 answered before the create of that name was sent",
    history: [create("a", 0, 1, "conflict"), create("a", 2, 3)],
    unique: true,
    want: "not-linearizable",
  },
  {
    given: "two 2xx creates of one name",
    history: [create("a", 0, 3), create("a", 1, 2)],
    unique: true,
    want: "not-linearizable",
  },
  {
    given: "eight overlapping creates and lists showing growing sets",
    history: [
      create("a", 0, 9),
      create("b", 0, 9),
      create("c", 0, 9),
      create("d", 0, 9),
      list(["a"], 1, 2),
      list(["a", "c"], 3, 4),
      list(["a", "b", "c"], 5, 6),
      list(["a", "b", "c", "d"], 10, 11),
    ],
    want: "linearizable",
  },
  {
    given: "overlapping lists whose sets cross (each shows a name the other lacks)",
    history: [create("a", 0, 9), create("b", 0, 9), list(["a"], 1, 8), list(["b"], 1, 8), list(["a"], 10, 11)],
    want: "not-linearizable",
  },
];

describe("linearize", () => {
  it.each(cases)("$given: $want", ({ history, unique, want }) => {
    expect(linearize(nameSetModel(unique ?? false), history).kind).toBe(want);
  });

  it("returns an order consistent with real time", () => {
    const history = [list(["a"], 4, 5), create("a", 0, 1)];
    expect(linearize(nameSetModel(false), history)).toEqual({ kind: "linearizable", order: [1, 0] });
  });

  it("stops at its budget without a verdict", () => {
    const history = Array.from({ length: 12 }, (_, i) => create(`n${i}`, 0, 100));
    expect(linearize(nameSetModel(false), [...history, list([], 0, 100), list(["x"], 200, 201)], 50).kind).toBe(
      "unknown",
    );
  });

  it("refuses a history too long for its search", () => {
    expect(() =>
      linearize(
        nameSetModel(false),
        Array.from({ length: 61 }, () => list([], 0, 1)),
      ),
    ).toThrow(/at most 60/);
  });
});

describe("linearize over generated histories", () => {
  /** A history run against the model itself, each operation overlapping its neighbours by `overlap` ticks. */
  const honest = fc
    .array(fc.oneof(fc.constantFrom("a", "b", "c", "d", "e"), fc.constant(null)), { minLength: 1, maxLength: 12 })
    .chain((ops) => fc.tuple(fc.constant(ops), fc.integer({ min: 0, max: 3 })))
    .map(([ops, overlap]) => {
      const names = new Set<string>();
      return ops.map((name, i): Op => {
        const [invokedAt, answeredAt] = [i * 2, i * 2 + 1 + overlap];
        if (name === null) return list([...names], invokedAt, answeredAt);
        const taken = names.has(name);
        names.add(name);
        return create(name, invokedAt, answeredAt, taken ? "conflict" : "created");
      });
    });

  it("finds every history the model itself produced linearizable, overlapping or not", () => {
    fc.assert(
      fc.property(honest, (history) => linearize(nameSetModel(true), history).kind === "linearizable"),
      {
        seed: 11,
        numRuns: 200,
      },
    );
  });

  it("finds no order once a list after every create leaves out a created name", () => {
    fc.assert(
      fc.property(honest, (history) => {
        const created = history.flatMap((op) =>
          op.input.kind === "create" && op.output.kind === "created" ? [op.input.name] : [],
        );
        fc.pre(created.length > 0);
        const end = Math.max(...history.map((op) => op.answeredAt)) + 1;
        const lost = list(created.slice(1), end, end + 1);
        return linearize(nameSetModel(true), [...history, lost]).kind === "not-linearizable";
      }),
      { seed: 12, numRuns: 200 },
    );
  });
});
