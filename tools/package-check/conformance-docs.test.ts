/** The suite's generated reference docs: the flags read from `--help`, the parts between markers, and that they are current. */
import { describe, expect, it } from "vitest";
import { usage } from "../../conformance/cli/run-config.js";
import { flagTable, updateDocs, usageFlags, withPart } from "./conformance-docs.js";

describe("usageFlags", () => {
  const cases = [
    {
      given: "Usage: x\n\n  --base-url URL               target service (required)",
      want: [{ spelling: "--base-url URL", help: "target service (required)" }],
    },
    {
      given:
        "  --retry-budget S             a 429 is waited for and\n                               sent again (default 30)",
      want: [{ spelling: "--retry-budget S", help: "a 429 is waited for and sent again (default 30)" }],
    },
    {
      given: "  -H, --header 'Name: value'   an extra header\n  --list                       print every check",
      want: [
        { spelling: "-H, --header 'Name: value'", help: "an extra header" },
        { spelling: "--list", help: "print every check" },
      ],
    },
    { given: "Every flag is also an environment variable: --base-url → CONFORMANCE_BASE_URL", want: [] },
  ];
  it.each(cases)("$given", ({ given, want }) => {
    expect(usageFlags(given)).toEqual(want);
  });
});

describe("flagTable", () => {
  it("has a row for every flag of --help, with its environment variable", () => {
    const table = flagTable();
    for (const { spelling } of usageFlags(usage()))
      expect(table).toContain(`| \`${spelling.replace(/\|/g, "\\|")}\` |`);
    expect(table).toContain("| `--base-url URL` | `CONFORMANCE_BASE_URL` |");
    expect(table).toContain("| `--list` |  |");
  });
});

describe("withPart", () => {
  const cases = [
    {
      given: "a\n<!-- generated:x -->\n<!-- /generated -->\nb",
      want: "a\n<!-- generated:x -->\nNEW\n<!-- /generated -->\nb",
    },
    {
      given: "<!-- generated:x -->\nold\nlines\n<!-- /generated -->",
      want: "<!-- generated:x -->\nNEW\n<!-- /generated -->",
    },
  ];
  it.each(cases)("$given", ({ given, want }) => {
    expect(withPart(given, "x", "NEW")).toBe(want);
  });
  it("names a missing marker", () => {
    expect(() => withPart("no markers", "x", "NEW")).toThrow(/generated:x/);
  });
});

describe("conformance/docs", () => {
  it("flags.md and checks.md are current (npx tsx tools/package-check/conformance-docs.ts writes them)", () => {
    expect(updateDocs({ check: true })).toEqual([]);
  });
});
