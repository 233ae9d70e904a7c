import { describe, expect, it } from "vitest";
import { inShard, parseShard } from "./shard.js";

describe("inShard", () => {
  const items = ["a", "b", "c", "d", "e"];
  const cases: { given: string; want: string[] }[] = [
    { given: "1/1", want: items },
    { given: "1/2", want: ["a", "c", "e"] },
    { given: "2/2", want: ["b", "d"] },
    { given: "3/3", want: ["c"] },
  ];
  for (const { given, want } of cases) it(given, () => expect(inShard(items, parseShard(given))).toEqual(want));

  it("splits the catalogue into parts that together hold every item once", () => {
    const parts = [1, 2, 3].flatMap((k) => inShard(items, { k, n: 3 }));
    expect([...parts].sort()).toEqual(items);
  });
});

describe("parseShard", () => {
  for (const given of ["0/2", "3/2", "1", "a/b", "1/0"])
    it(`refuses ${given}`, () => expect(() => parseShard(given)).toThrow(/--shard/));
});
