/** Text every store keeps exactly as sent (D-111): no NUL (U+0000) and no lone UTF-16 surrogate, in any string of a body or parameter. */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a client is told about a string that is not storable text. */
export const unstorableTextDetail = "must not contain a NUL character (U+0000) or a lone surrogate (invalid Unicode)";

/** Whether a string is storable text. */
export function isStorableText(text: string): boolean {
  return !text.includes("\0") && !loneSurrogate.test(text);
}

/** The JSON pointers (RFC 6901) of every string, and every object key, of a JSON value that is not storable text. */
export function unstorableTextPointers(value: unknown, pointer = ""): string[] {
  if (typeof value === "string") return isStorableText(value) ? [] : [pointer];
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableTextPointers(item, `${pointer}/${index}`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const at = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    return isStorableText(key) ? unstorableTextPointers(item, at) : [at];
  });
}
