/** Tests of terminal-safe text (D-393): what a target sends cannot drive the terminal. */
import { describe, expect, it } from "vitest";
import { terminalSafe } from "./terminal-text.js";

describe("terminalSafe", () => {
  const cases: { given: string; text: string; want: string }[] = [
    { given: "a window title", text: "\x1b]0;pwned\x07", want: "\\x1b]0;pwned\\x07" },
    { given: "a screen clear and a carriage return", text: "\x1b[2Jok\r", want: "\\x1b[2Jok\\x0d" },
    { given: "a C1 control", text: "a\u009bb", want: "a\\x9bb" },
    { given: "a right-to-left override", text: "a\u202eb", want: "a\\u202eb" },
    { given: "newlines, tabs and text kept", text: "a\n\tb é ✓", want: "a\n\tb é ✓" },
  ];
  for (const c of cases) it(c.given, () => expect(terminalSafe(c.text)).toBe(c.want));
});
