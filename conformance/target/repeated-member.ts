/** The first member name an object of a JSON text repeats (RFC 8259 §4, RFC 7493 §2.3), which a parse silently drops. */

/** The index of the quote that closes the string opening at `start`, or the text's end when none does. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 1;
    else if (c === 0x22) return i;
  }
  return text.length;
}

/**
 * The first name given twice in one object of `text`, compared as decoded (`"a"` and `"\u0061"` are one name), or
 * undefined. One pass, no parse: a text that is not JSON gets an answer too, which then means nothing.
 */
export function repeatedMember(text: string): string | undefined {
  // the names seen in each open object; null for an open array
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const names = open.at(-1);
      if (names && nameNext) {
        let name: string;
        try {
          name = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          return undefined;
        }
        if (names.has(name)) return name;
        names.add(name);
        nameNext = false;
      }
      i = end;
    } else if (c === 0x7b) {
      open.push(new Set());
      nameNext = true;
    } else if (c === 0x5b) {
      open.push(null);
      nameNext = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      nameNext = false;
    } else if (c === 0x2c) nameNext = open.at(-1) instanceof Set;
  }
  return undefined;
}
