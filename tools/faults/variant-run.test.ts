/** Tests of the legal variants' series and table: the runs planned from the seeds, MUST failures in bold, SHOULD failures against the baseline. */
import { describe, expect, it } from "vitest";
import { type VariantOutcome, variantPlan, variantTable } from "./variant-run.js";

const run = (id: string, hosting: VariantOutcome["hosting"], must: string[], should: string[]): VariantOutcome => ({
  id,
  hosting,
  description: `${id} does things`,
  runs: [{ label: "seed 1 shuffled", exitCode: must.length > 0 ? 1 : 0, must, should, seconds: 7 }],
  must,
  should,
  seconds: 7,
});

describe("variantPlan", () => {
  it("runs each seed shuffled, then the first seed again in area order on the used target", () =>
    expect(variantPlan(["1", "2", "3"])).toEqual([
      { label: "seed 1 shuffled", seed: "1", shuffle: true },
      { label: "seed 2 shuffled", seed: "2", shuffle: true },
      { label: "seed 3 shuffled", seed: "3", shuffle: true },
      { label: "seed 1 again, area order (used target)", seed: "1", shuffle: false },
    ]));
  it("refuses a series without a seed", () => expect(() => variantPlan([])).toThrow(/at least one seed/));
});

describe("variantTable", () => {
  const cases: { name: string; outcomes: VariantOutcome[]; row: string }[] = [
    {
      name: "the baseline lists its SHOULD failures in full",
      outcomes: [
        run("profile-choices", "cloud", [], ["ERR-001"]),
        run("profile-choices", "self_hosted", [], ["ERR-001"]),
      ],
      row: "| profile-choices | profile-choices does things | 0 / 0 | ERR-001 |",
    },
    {
      name: "another variant shows what it adds and removes, and its MUST failures in bold",
      outcomes: [
        run("profile-choices", "cloud", [], ["ERR-001", "CORS-001"]),
        run("profile-choices", "self_hosted", [], ["ERR-001", "CORS-001"]),
        run("create-200", "cloud", ["POS-002"], ["ERR-001", "DEP-CREATE-002"]),
        run("create-200", "self_hosted", [], ["ERR-001", "DEP-CREATE-002"]),
      ],
      row: "| create-200 | create-200 does things | **POS-002** / 0 | +DEP-CREATE-002, −CORS-001 |",
    },
    {
      name: "hosting kinds that differ are shown apart; a kind not run says so",
      outcomes: [run("x", "cloud", [], ["A"])],
      row: "| x | x does things | 0 / not run | cloud: A; self-hosted: not run |",
    },
  ];
  for (const c of cases) it(c.name, () => expect(variantTable(c.outcomes).split("\n")).toContain(c.row));
});
