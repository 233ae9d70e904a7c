/** D-350, D-410: a streamed JSON body's parts, and its runs checked one at a time before each is sent. */
import { describe, expect, it } from "vitest";
import { JsonStream } from "./json-stream.js";

async function* runsOf(runs: string[]): AsyncGenerator<string> {
  for (const run of runs) yield run;
}

/** Collects a stream's parts until it ends or fails; the failure's message last. */
async function collect(stream: JsonStream<unknown>): Promise<string[]> {
  const parts: string[] = [];
  try {
    for await (const part of stream.parts()) parts.push(part);
  } catch (error) {
    parts.push(`failed: ${(error as Error).message}`);
  }
  return parts;
}

const head = '{"items":[';
const tail = '],"next":3}';
const stream = (runs: string[]) => new JsonStream(head, runsOf(runs), tail, () => {});
/** A check that refuses any item whose `n` is negative, and records what it saw. */
function checker(seen: unknown[]) {
  return (value: unknown) => {
    seen.push(value);
    if ((value as { items: Array<{ n: number }> }).items.some((item) => item.n < 0)) throw new Error("breach");
  };
}

describe("JsonStream", () => {
  const cases = [
    { given: [], parts: [head, tail] },
    { given: ['{"n":1}'], parts: [head, '{"n":1}', tail] },
    { given: ['{"n":1},{"n":2}', '{"n":3}'], parts: [head, '{"n":1},{"n":2}', ',{"n":3}', tail] },
  ];
  for (const { given, parts } of cases)
    it(`sends ${given.length} runs as one JSON text`, async () => {
      const sent = await collect(stream(given));
      expect(sent).toEqual(parts);
      expect(JSON.parse(sent.join(""))).toMatchObject({ next: 3 });
    });

  it("checks each run as the whole value with only that run's items, before sending it", async () => {
    const seen: unknown[] = [];
    const sent = await collect(stream(['{"n":1},{"n":2}', '{"n":3}']).checkedRuns(checker(seen)));
    expect(sent).toEqual([head, '{"n":1},{"n":2}', ',{"n":3}', tail]);
    expect(seen).toEqual([
      { items: [{ n: 1 }, { n: 2 }], next: 3 },
      { items: [{ n: 3 }], next: 3 },
    ]);
  });

  it("fails where a run breaks the check: the runs before it sent, that one and the tail not", async () => {
    const seen: unknown[] = [];
    const sent = await collect(stream(['{"n":1}', '{"n":-2}', '{"n":3}']).checkedRuns(checker(seen)));
    expect(sent).toEqual([head, '{"n":1}', "failed: breach"]);
    expect(seen).toHaveLength(2);
  });

  it("keeps the stream's close", () => {
    const close = () => {};
    expect(new JsonStream(head, runsOf([]), tail, close).checkedRuns(() => {}).close).toBe(close);
  });
});
