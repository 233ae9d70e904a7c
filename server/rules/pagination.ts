/** Offset pagination (profile choice 7): the returned offset is the request's offset plus the number returned; past the end, the same offset [D-09]. */

export function nextOffset(requestOffset: number, returned: number): number {
  return requestOffset + returned;
}
