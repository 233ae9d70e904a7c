/** The per-source table of spec/decisions.md is the one spec/source-rules.json renders (D-200); `npm run check:generated` fails otherwise. */
import { describe, expect, it } from "vitest";
import { decisionsDocument, withSourceRulesTable } from "./source-rules-table.js";

const begin = "<!-- per-source table: generated from spec/source-rules.json by `npm run generate`; do not edit -->";
const end = "<!-- end of the per-source table -->";

describe("the per-source table of spec/decisions.md", () => {
  it("is what spec/source-rules.json renders (run `npm run generate` after editing the JSON)", () => {
    const { current, fresh } = decisionsDocument();
    expect(current).toBe(fresh);
  });

  const cases: Array<{ name: string; given: string; want: RegExp | "throws" }> = [
    {
      name: "a hand-edited cell is rewritten",
      given: `before\n${begin}\n| \`source_config.repo_url\` | O |\n${end}\nafter`,
      want: /^before\n.*\n\n\| Field \| `codehost` [^\n]*\n\|---\|[\s\S]*\| `source_config\.repo_url` \| R \| F \| F \| F \| F \|[\s\S]*\n\n<!-- end of the per-source table -->\nafter$/,
    },
    { name: "a document without the markers", given: "| Field | `codehost` |", want: "throws" },
  ];
  it.each(cases)("$name", ({ given, want }) => {
    if (want === "throws") expect(() => withSourceRulesTable(given)).toThrow(/markers/);
    else expect(withSourceRulesTable(given)).toMatch(want);
  });
});
