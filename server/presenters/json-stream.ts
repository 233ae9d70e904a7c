/**
 * A JSON response body sent in parts as they are produced (D-350): an object whose one array is sent in runs of its
 * items, each run the items' texts joined with commas, between the text before the array's items (`head`) and
 * after them (`tail`); `close` frees what it holds once sent or abandoned.
 */
export class JsonStream<Encodes> {
  /** Only for the type checker: the value the parts encode together. */
  declare readonly encodes?: Encodes;
  constructor(
    readonly head: string,
    readonly runs: AsyncIterable<string>,
    readonly tail: string,
    readonly close: () => void,
  ) {}

  /** The parts as sent: the head, each run (a comma before every one but the first), the tail. */
  async *parts(): AsyncGenerator<string> {
    yield this.head;
    let first = true;
    for await (const run of this.runs) {
      yield first ? run : `,${run}`;
      first = false;
    }
    yield this.tail;
  }

  /**
   * The same stream, each run checked before it is sent as the value `head + run + tail` (D-410): the same value
   * with only the run's items, so a schema without a constraint across the array's items judges every item of
   * the whole with no more than one run held. `check` throws on a breach, which fails the stream there.
   */
  checkedRuns(check: (value: unknown) => void): JsonStream<Encodes> {
    const { head, runs, tail } = this;
    async function* checked(): AsyncGenerator<string> {
      for await (const run of runs) {
        // On a later turn of the event loop than the run's read: each holds the loop about half as long.
        await new Promise((resolve) => setImmediate(resolve));
        check(JSON.parse(`${head}${run}${tail}`));
        yield run;
      }
    }
    return new JsonStream(head, checked(), tail, this.close);
  }
}
