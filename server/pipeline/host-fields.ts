/** How many Host field lines a Node request carried: Node's `headers` keeps only the first of several (D-310). */
export function hostFieldCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === "host") count++;
  return count;
}
