import { describe, expect, it } from "vitest";
import { loadsWithModule } from "./module-level.js";

describe("loadsWithModule", () => {
  const cases: { given: string; at: string; want: boolean }[] = [
    { given: 'export const headers = { "Cache-Control": "no-store" };', at: '"no-store"', want: true },
    { given: "const bytes = 16 * 1024;", at: "16 * 1024", want: true },
    { given: "const pattern = /^(08...)$/;", at: "/^(08", want: true },
    { given: "function f() {\n  return 16 * 1024;\n}", at: "16 * 1024", want: false },
    { given: "const f = () => ({ a: 1 });", at: "{ a: 1 }", want: false },
    { given: "function f(limit = 256 * 1024) {}", at: "256 * 1024", want: false },
    { given: "class A {\n  size = 2 * 3;\n}", at: "2 * 3", want: false },
    { given: "class A {\n  static size = 2 * 3;\n}", at: "2 * 3", want: true },
    { given: "class A {\n  run() {\n    return 1 + 1;\n  }\n}", at: "1 + 1", want: false },
    { given: "const table = [1, 2].map((n) => n + 1);", at: "[1, 2]", want: true },
    { given: "const table = [1, 2].map((n) => n + 1);", at: "n + 1", want: false },
  ];
  for (const { given, at, want } of cases)
    it(`${at} in ${JSON.stringify(given)}`, () => {
      const before = given.slice(0, given.indexOf(at));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      expect(loadsWithModule(given)(line, column)).toBe(want);
    });

  it("says no for a place past the file's end", () => {
    expect(loadsWithModule("const a = 1;")(9, 1)).toBe(false);
  });
});
