/** Offset pagination (D-09): the returned offset is the request's offset plus the number returned; past the end, the same offset. */

export function nextOffset(requestOffset: number, returned: number): number {
  return requestOffset + returned;
}
