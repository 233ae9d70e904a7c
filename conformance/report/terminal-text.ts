/**
 * Text from the target made safe for a terminal (D-393): control characters (C0 but newline and tab, DEL, C1) and
 * the bidirectional overrides are shown as `\xNN` / `\uNNNN` escapes, so an answer cannot set the window title,
 * clear the screen, move the cursor or reorder a line. Reports keep the text as it came (escaped for their format).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the class names exactly the control characters to escape
const unsafe = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** `text` with every terminal control character escaped. */
export function terminalSafe(text: string): string {
  return text.replace(unsafe, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** A copy of `value` with every string in it terminal-safe: what a console renderer reads from the target. */
export function terminalSafeDeep<T>(value: T): T {
  const made = (node: unknown): unknown => {
    if (typeof node === "string") return terminalSafe(node);
    if (Array.isArray(node)) return node.map(made);
    if (node !== null && typeof node === "object")
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [terminalSafe(k), made(v)]));
    return node;
  };
  return made(value) as T;
}
