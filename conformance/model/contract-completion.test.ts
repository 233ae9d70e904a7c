/** A generator's requests get every member their schema declares that the generator never sends, where the rules allow. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SchemaObject } from "../../contract/index.js";
import { type CompletionRules, completed } from "./contract-completion.js";

const schema: SchemaObject = {
  type: "object",
  properties: {
    kind: { type: "string" },
    note: { type: "string" },
    vendor: { anyOf: [{ type: "string", enum: ["x"] }, { type: "null" }] },
    config: { type: "object", properties: { url: { type: "string" }, extra: { type: "integer" } } },
    forbidden: { type: "boolean" },
  },
};

/** Bodies of two kinds: `a` with a config holding its url, `b` with none; vendor only ever null; `note` sometimes. */
const generator = fc
  .record({
    kind: fc.constantFrom("a", "b"),
    vendor: fc.constant(null),
    note: fc.option(fc.constant("n"), { nil: undefined }),
  })
  .map((body) => (body.kind === "a" ? { ...body, config: { url: "u" } } : body));

const may: CompletionRules["may"] = (path) => path !== "forbidden";

describe("completed", () => {
  it.each<{ rules: Omit<CompletionRules, "schema">; kind: string; want: string[] }>([
    { rules: { may }, kind: "a", want: ["vendor", "config.extra"] },
    // one group: config is sent (by kind a), so none is added to b
    { rules: { may }, kind: "b", want: ["vendor"] },
    { rules: { may, absentOnly: true }, kind: "a", want: ["config.extra"] },
    // grouped by kind: `b` never sends config's url, so its config comes whole from the schema as above
    { rules: { may, groupOf: (b) => String(b.kind) }, kind: "b", want: ["vendor", "config"] },
    { rules: { may: () => false }, kind: "a", want: [] },
  ])("$kind $rules", ({ rules, kind, want }) => {
    const drawn = fc.sample(completed(generator, { schema, ...rules }), { numRuns: 40, seed: 2 });
    const ofKind = drawn.filter((c) => c.body.kind === kind);
    expect(ofKind.length).toBeGreaterThan(0);
    for (const { body, added } of ofKind) {
      expect(added.filter((path) => path !== "note")).toEqual(want);
      expect(added).not.toContain("note");
      if (want.includes("vendor")) expect(body.vendor).toBe("x");
      if (want.includes("config.extra")) expect(body.config).toEqual({ url: "u", extra: expect.any(Number) });
      expect(body.forbidden).toBeUndefined();
    }
  });
});
