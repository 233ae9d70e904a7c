/** Tests of the legal variants' table: MUST failures in bold, SHOULD failures against the baseline. */
import { describe, expect, it } from "vitest";
import { type VariantOutcome, variantTable } from "./variant-run.js";

const run = (id: string, hosting: VariantOutcome["hosting"], must: string[], should: string[]): VariantOutcome => ({
  id,
  hosting,
  description: `${id} does things`,
  exitCode: must.length > 0 ? 1 : 0,
  must,
  should,
  seconds: 7,
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
