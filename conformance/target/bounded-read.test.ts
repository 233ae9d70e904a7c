/** The suite's careful reading of an answer: the values a body holds counted without a parse (D-460), and the least pace of a body (D-461). */
import { describe, expect, it } from "vitest";
import { countJsonValues, readBounded } from "./bounded-read.js";

describe("countJsonValues", () => {
  const cases: { given: string; most?: number; want: number }[] = [
    { given: "{}", want: 1 },
    { given: "[]", want: 1 },
    { given: '"a string"', want: 1 },
    { given: "-12.5e+3", want: 1 },
    { given: "[true, false, null, 1, -2]", want: 6 },
    { given: '{"a": 1, "b": [1, 2], "c": {"d": "x"}}', want: 7 },
    // keys are no values, and what a string holds is not read: brackets, colons, escaped quotes
    { given: '{"k:[{": "v\\":{[", "e": ""}', want: 3 },
    { given: `[${Array.from({ length: 1000 }, () => "{}").join(",")}]`, want: 1001 },
    // counting stops past the bound
    { given: `[${Array.from({ length: 1000 }, () => "{}").join(",")}]`, most: 10, want: 11 },
    { given: "  \n", want: 0 },
  ];
  for (const c of cases)
    it(`${c.given.slice(0, 40)} holds ${c.want}`, () => {
      expect(countJsonValues(c.given, c.most ?? 1_000_000)).toBe(c.want);
    });
});

describe("readBounded with a least pace (D-461)", () => {
  it("aborts a body that stops coming", async () => {
    let stall: ReadableStreamDefaultController<Uint8Array> | undefined;
    const response = new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          stall = controller;
          controller.enqueue(new TextEncoder().encode("[1,"));
        },
      }),
    );
    // the pace's abort errors the body, as the fetch's signal does, so the read ends; without it, it would never end
    const reading = readBounded(response, 1024, {
      rate: { bytesPerSecond: 1024, abort: () => stall?.error(new Error("too slow")) },
    });
    await expect(reading).rejects.toThrow("too slow");
  });
  it("reads a body that comes at once, whatever the pace", async () => {
    let aborted = false;
    const got = await readBounded(new Response("[1,2,3]"), 1024, {
      rate: { bytesPerSecond: 1, abort: () => (aborted = true) },
    });
    expect(got).toEqual({ text: "[1,2,3]", cut: false });
    expect(aborted).toBe(false);
  });
});

describe("readBounded with a bound of values (D-460)", () => {
  const cases: { given: string; maxValues: number; want: { cut: boolean; tooManyValues?: boolean } }[] = [
    { given: "[1,2,3]", maxValues: 4, want: { cut: false } },
    { given: "[1,2,3,4]", maxValues: 4, want: { cut: false, tooManyValues: true } },
  ];
  for (const c of cases)
    it(`${c.given} with at most ${c.maxValues} values`, async () => {
      const got = await readBounded(new Response(c.given), 1024, { maxValues: c.maxValues });
      expect(got).toMatchObject(c.want);
      expect(got.tooManyValues).toBe(c.want.tooManyValues);
    });
});
