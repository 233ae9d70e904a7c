/**
 * Where a value sent is not kept in a value read back: every member of a sent object is in the read one with its
 * value kept (members the target adds are not judged), and a sent array comes back as long, each item kept in order.
 * For content whose inner fields the interface spec does not show (D-457): a target may add to it, never drop or
 * change what it accepted.
 */
export function notKept(got: unknown, sent: unknown, path = ""): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(got) || got.length !== sent.length)
      return [`${path || "the value"}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`];
    return sent.flatMap((item, i) => notKept(got[i], item, `${path}[${i}]`));
  }
  if (sent !== null && typeof sent === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got))
      return [`${path || "the value"}: sent an object, got ${JSON.stringify(got)}`];
    const read = got as Record<string, unknown>;
    return Object.entries(sent).flatMap(([key, value]) => {
      const at = path === "" ? key : `${path}.${key}`;
      return Object.hasOwn(read, key)
        ? notKept(read[key], value, at)
        : [`${at}: sent ${JSON.stringify(value)}, left out`];
    });
  }
  return got === sent ? [] : [`${path || "the value"}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`];
}
