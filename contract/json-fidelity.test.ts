import { describe, expect, it } from "vitest";
import { jsonFidelityIssues, maxJsonDepth } from "./json-fidelity.js";

const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;

describe("jsonFidelityIssues (D-281)", () => {
  it.each([
    ["plain numbers", '{"a":1,"b":-0.5,"c":[0,1e3,2.50,1E-7,-0]}', []],
    ["2^53 exactly", '{"a":9007199254740992}', []],
    ["a decimal whose float prints back the same", '{"a":0.1,"b":123456789.123456}', []],
    ["1e21 and 5e-324", '{"a":1e21,"b":5e-324}', []],
    ["an integer beyond 2^53", '{"a":{"b":9007199254740993}}', ["/a/b"]],
    ["overflow to infinity", '{"a":[1,1e400]}', ["/a/1"]],
    ["negative overflow", '{"x":-1e309}', ["/x"]],
    ["underflow to zero", '{"a":1e-400}', ["/a"]],
    ["more digits than a float holds", '{"pi":3.14159265358979323846}', ["/pi"]],
    ["numbers inside strings are not numbers", '{"a":"1e400","b":"x\\"9007199254740993"}', []],
    ["keys escaped in the pointer", '{"a/b":{"c~d":1e999}}', ["/a~1b/c~0d"]],
    ["keys with escapes", '{"\\u0061\\"":1e999}', ['/a"']],
    ["array indexes after nested members", '[[1,2],{"k":[3]},1e999]', ["/2"]],
    ["a top-level number", "1e400", [""]],
    ["a member given twice", '{"a":1,"b":2,"a":3}', ["/a"]],
    ["a member given three times", '{"a":1,"a":2,"a":3}', ["/a", "/a"]],
    ["one name spelled with an escape", '{"a":1,"\\u0061":2}', ["/a"]],
    ["a member given twice in an item", '{"s":[{"n":1},{"n":2,"n":3}]}', ["/s/1/n"]],
    ["one name in several objects", '{"a":{"a":1,"b":{"a":2}},"b":[{"a":3},{"a":4}]}', []],
    [`${maxJsonDepth} levels`, nested(maxJsonDepth), []],
    [`${maxJsonDepth + 1} levels`, nested(maxJsonDepth + 1), [`/${Array(maxJsonDepth).fill("a").join("/")}`]],
    [
      "arrays 100,000 deep",
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      [`/${Array(maxJsonDepth).fill(0).join("/")}`],
    ],
  ])("%s", (_, text, pointers) => {
    expect(jsonFidelityIssues(text).map((issue) => issue.pointer)).toEqual(pointers);
  });

  it("says what the number would become", () => {
    expect(jsonFidelityIssues('{"a":9007199254740993,"b":1e400}').map((issue) => issue.detail)).toEqual([
      "9007199254740993 is not exactly a 64-bit floating-point number (it would be stored as 9007199254740992)",
      "1e400 is beyond the range of a 64-bit floating-point number (it would be stored as null)",
    ]);
  });

  it("tells at most 50 places", () => {
    expect(jsonFidelityIssues(`[${Array(80).fill("1e999").join(",")}]`)).toHaveLength(50);
  });
});
