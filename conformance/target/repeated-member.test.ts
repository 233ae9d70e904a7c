/** Tests of the repeated member finder: which name it reports, or none. */
import { describe, expect, it } from "vitest";
import { repeatedMember } from "./repeated-member.js";

describe("repeatedMember", () => {
  const cases: { given: string; text: string; want: string | undefined }[] = [
    { given: "no object", text: '[1, "a", null]', want: undefined },
    { given: "distinct names", text: '{"a":1,"b":2}', want: undefined },
    { given: "a name twice", text: '{"a":1,"b":2,"a":3}', want: "a" },
    { given: "a name twice, one escaped", text: '{"a":1,"\\u0061":2}', want: "a" },
    { given: "names differing in case", text: '{"id":1,"ID":2}', want: undefined },
    { given: "the same name in two objects", text: '[{"id":1},{"id":2}]', want: undefined },
    { given: "the same name at two depths", text: '{"id":{"id":1}}', want: undefined },
    { given: "a nested object repeating", text: '{"x":[{"a":1,"a":2}]}', want: "a" },
    { given: "a value equal to a name", text: '{"a":"a","b":"a"}', want: undefined },
    { given: "a name after a nested object closes", text: '{"a":{"b":1},"a":2}', want: "a" },
    { given: "quotes and braces inside strings", text: '{"a":"\\"}{,\\"a\\":","b":1}', want: undefined },
    { given: "an object in an array, then a name", text: '{"l":[{"a":1}],"a":2}', want: undefined },
  ];
  for (const c of cases) it(c.given, () => expect(repeatedMember(c.text)).toBe(c.want));
});
