/** How many field lines of one name a Node request carried: Node keeps the first Host of several and joins repeated X-Api-Key lines (D-310, D-397). */
function fieldLineCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === name) count++;
  return count;
}

/** How many Host field lines a Node request carried (D-310). */
export const hostFieldCount = (rawHeaders: readonly string[]): number => fieldLineCount(rawHeaders, "host");

/** How many X-Api-Key field lines a Node request carried (D-397). */
export const keyFieldCount = (rawHeaders: readonly string[]): number => fieldLineCount(rawHeaders, "x-api-key");

/**
 * RFC 9110 §7.2's Host value: `uri-host [ ":" port ]` (RFC 3986), an IP literal in brackets or a registered name,
 * or empty. A comma, which RFC 3986 allows in a registered name, is refused too (D-412): no DNS name holds one,
 * and an intermediary that joins two Host lines writes `a, b`, which the server must not read as one authority.
 */
const hostValue = /^(?:\[[0-9A-Fa-f:.vV]+\]|[A-Za-z0-9\-._~!$&'()*+;=%]*)(?::[0-9]*)?$/;

/** Whether a Host field value (as Node joined it) names one authority; an absent field is judged elsewhere. */
export function isHostValue(value: string | string[] | undefined): boolean {
  if (value === undefined) return true;
  return typeof value === "string" && hostValue.test(value);
}
