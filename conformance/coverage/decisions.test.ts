/** Tests of reading the decisions table and the decision ids a spec pointer cites. */
import { describe, expect, it } from "vitest";
import { citedDecisions, loadDecisions, parseDecisions } from "./decisions.js";

describe("parseDecisions", () => {
  it("reads id and level of each row, with escaped pipes inside cells", () => {
    const markdown = [
      "| Id | Gap | Decision | Level | Reason |",
      "|---|---|---|---|---|",
      "| D-01 | a \\| b | c | SHOULD | r |",
      "| D-06 | x | y | MUST for op 2, SHOULD otherwise | r |",
      "| D-07 | x | `string \\| null` | MUST | r |",
      "text mentioning | D-99 | elsewhere",
    ].join("\n");
    expect(parseDecisions(markdown)).toEqual([
      { id: "D-01", level: "SHOULD" },
      { id: "D-06", level: "MUST/SHOULD" },
      { id: "D-07", level: "MUST" },
    ]);
  });
  it("finds every row of spec/decisions.md, numbered without gaps below the reserved ranges (D-100 up) and without repeats", () => {
    const ids = loadDecisions()
      .map((d) => Number(d.id.slice(2)))
      .sort((a, b) => a - b);
    expect(ids.length).toBeGreaterThan(80);
    const low = ids.filter((id) => id < 100);
    expect(low).toEqual(low.map((_, i) => i + 1));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("citedDecisions", () => {
  const cases: { given: string; want: string[] }[] = [
    { given: "interface-spec: 5. List deployments", want: [] },
    { given: "D-16 (422 when a request breaks the schema)", want: ["D-16"] },
    { given: "D-13 to D-15 (a tenant the key cannot reach: 403)", want: ["D-13", "D-14", "D-15"] },
    { given: "D-28; interface-spec: Deployment record", want: ["D-28"] },
    { given: "D-39 to D-45, D-16", want: ["D-39", "D-40", "D-41", "D-42", "D-43", "D-44", "D-45", "D-16"] },
  ];
  for (const c of cases) it(c.given, () => expect(citedDecisions(c.given)).toEqual(c.want));
});
