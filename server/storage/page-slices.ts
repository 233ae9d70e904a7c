/**
 * Heavy pages in slices (D-350): a page with a deployment text over `inlineTextBytes` is read from the database a
 * slice of about `sliceBytes` at a time, with a turn of the event loop before each, instead of as one string.
 */

/** A deployment text longer than this makes its page a sliced one (an ordinary deployment's is under 1 KiB). */
const inlineTextBytes = 16 * 1024;

/** The texts one statement of a sliced page reads: a fraction of a millisecond of the event loop. */
const sliceBytes = 256 * 1024;

/**
 * The columns of a page's one-statement read: a text over `inlineTextBytes` is left out (NULL) and not read, since
 * both SQLite and PostgreSQL take `octet_length` of a stored column from its header, so a heavy page costs no more
 * than a light one until it is known to be heavy.
 */
export const inlineTextColumns = `CASE WHEN octet_length(rendered) <= ${inlineTextBytes} THEN rendered END AS rendered, status, ready_us, latest_revision_id`;

/** The columns of a sliced page's first statement: each deployment's sequence number and the bytes of its text. */
export const weighedColumns = "seq, octet_length(rendered) AS bytes";

/** A page's sequence numbers, in its order, cut into slices of at most `limit` bytes of text (a longer text alone). */
export function sliceSeqs(
  weighed: ReadonlyArray<readonly [seq: number, bytes: number]>,
  limit = sliceBytes,
): number[][] {
  const slices: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const [seq, size] of weighed) {
    if (current.length > 0 && bytes + size > limit) {
      slices.push(current);
      current = [];
      bytes = 0;
    }
    current.push(seq);
    bytes += size;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/** Each slice's joined texts, read one by one when iterated, with a turn of the event loop before each but the first. */
export async function* readSlices(
  slices: readonly number[][],
  read: (seqs: number[]) => string | Promise<string>,
): AsyncGenerator<string> {
  for (const [index, seqs] of slices.entries()) {
    // Requests that arrived meanwhile (another organization's among them) are served before the next slice.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const joined = await read(seqs);
    if (joined !== "") yield joined;
  }
}
