/** D-350: how a heavy page's rows are cut into slices, and how the slices are read. */
import { describe, expect, it } from "vitest";
import { readSlices, sliceSeqs } from "./page-slices.js";

describe("sliceSeqs", () => {
  const cases: Array<{ given: { rows: Array<[number, number]>; limit: number }; want: number[][] }> = [
    { given: { rows: [], limit: 10 }, want: [] },
    {
      given: {
        rows: [
          [9, 4],
          [8, 4],
          [7, 4],
        ],
        limit: 10,
      },
      want: [[9, 8], [7]],
    },
    {
      given: {
        rows: [
          [9, 5],
          [8, 5],
          [7, 5],
        ],
        limit: 10,
      },
      want: [[9, 8], [7]],
    },
    {
      given: {
        rows: [
          [9, 30],
          [8, 1],
          [7, 1],
        ],
        limit: 10,
      },
      want: [[9], [8, 7]],
    },
    {
      given: {
        rows: [
          [9, 1],
          [8, 30],
          [7, 30],
        ],
        limit: 10,
      },
      want: [[9], [8], [7]],
    },
    {
      given: {
        rows: [
          [3, 1],
          [2, 1],
          [1, 1],
        ],
        limit: 100,
      },
      want: [[3, 2, 1]],
    },
  ];
  for (const { given, want } of cases)
    it(`${JSON.stringify(given.rows)} at ${given.limit} -> ${JSON.stringify(want)}`, () =>
      expect(sliceSeqs(given.rows, given.limit)).toEqual(want));
});

describe("readSlices", () => {
  it("reads each slice only when iterated, on a later turn of the event loop than the one before, and skips empty ones", async () => {
    const events: string[] = [];
    const slices = readSlices([[3], [2], [1]], (seqs) => {
      events.push(`read ${seqs}`);
      return seqs[0] === 2 ? "" : `{"seq":${seqs[0]}}`;
    });
    expect(events).toEqual([]);
    const iterator = slices[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: '{"seq":3}' });
    setImmediate(() => events.push("other request"));
    expect(await iterator.next()).toEqual({ done: false, value: '{"seq":1}' });
    expect(events).toEqual(["read 3", "other request", "read 2", "read 1"]);
    expect((await iterator.next()).done).toBe(true);
  });
});
