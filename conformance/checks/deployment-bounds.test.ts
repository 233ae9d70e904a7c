/** Tests of how the deployment bound checks grow values to a length and read the character classes of a pattern. */
import { describe, expect, it } from "vitest";
import { classMembers, grow } from "./deployment-bounds.js";

describe("grow", () => {
  const cases: { given: [string, number]; want: string }[] = [
    { given: ["graph.json", 14], want: "graph.jsonxxxx" },
    { given: ["https://app.example.com", 27], want: "https://app.example.com/xxx" },
    { given: ["registry.example.com/app:1.2.3", 33], want: "registry.example.com/appxxx:1.2.3" },
    { given: ["registry.example.com:5000/app:1.2.3", 36], want: "registry.example.com:5000/appx:1.2.3" },
    { given: ["abcdef", 3], want: "abc" },
  ];
  for (const { given, want } of cases)
    it(`${given[0]} to ${given[1]}`, () => {
      expect(grow(...given)).toBe(want);
      expect(grow(...given)).toHaveLength(given[1]);
    });
});

describe("classMembers", () => {
  const cases: { given: string; want: string[][] }[] = [
    {
      given: "^[a-zA-Z][a-zA-Z0-9-]*$",
      want: [
        ["a", "z", "A", "Z"],
        ["a", "z", "A", "Z", "0", "9", "-"],
      ],
    },
    {
      given: "^[A-Za-z_][A-Za-z0-9_.-]*$",
      want: [
        ["A", "Z", "a", "z", "_"],
        ["A", "Z", "a", "z", "0", "9", "_", ".", "-"],
      ],
    },
    { given: "^x+$", want: [] },
  ];
  for (const { given, want } of cases) it(given, () => expect(classMembers(given)).toEqual(want));
});
