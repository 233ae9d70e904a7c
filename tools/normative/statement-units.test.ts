/** The units of the interface spec an inventory statement must cover: table rows by their first cell, lines of prose whole. */
import { describe, expect, it } from "vitest";
import { parseMarkdownSections } from "../../generator/markdown-tables.js";
import { type StatementUnit, statementUnits } from "./statement-units.js";

const cases: { name: string; given: string; want: StatementUnit[] }[] = [
  {
    name: "a table row by its first cell, with every cell",
    given: "## Limits\n| Limit | Value |\n|---|---|\n| limit | 1 to 100 |\n",
    want: [{ section: "Limits", kind: "row", row: "limit", text: "limit | 1 to 100" }],
  },
  {
    name: "each paragraph and item of prose, trimmed; blank lines left out",
    given: "## Errors\nThe constraints are listed.\n\n- one item\n  2. a numbered one\n",
    want: [
      { section: "Errors", kind: "prose", text: "The constraints are listed." },
      { section: "Errors", kind: "prose", text: "- one item" },
      { section: "Errors", kind: "prose", text: "2. a numbered one" },
    ],
  },
  {
    name: "rows before prose within a section, sections in order",
    given: "## A\nText of A.\n| x | y |\n|---|---|\n| 1 | 2 |\n## B\nText of B.\n",
    want: [
      { section: "A", kind: "row", row: "1", text: "1 | 2" },
      { section: "A", kind: "prose", text: "Text of A." },
      { section: "B", kind: "prose", text: "Text of B." },
    ],
  },
];

describe("statementUnits", () => {
  for (const { name, given, want } of cases)
    it(name, () => {
      expect(statementUnits({ $comment: "", sections: parseMarkdownSections(given) })).toEqual(want);
    });
});
