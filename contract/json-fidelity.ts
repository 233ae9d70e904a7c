/** What of a JSON text would not be kept as sent once parsed (D-281): nesting deeper than `maxJsonDepth`, numbers that a 64-bit float changes, and a member given twice in one object. */

/** The deepest nesting of objects and arrays a request body may hold; the body itself is level 1 (D-281). */
export const maxJsonDepth = 32;

/** One place of a JSON text that would not be kept as sent: its JSON pointer (RFC 6901) and why. */
interface FidelityIssue {
  pointer: string;
  detail: string;
}

/** At most this many issues are told, so that a huge array of bad numbers cannot make a huge answer. */
const maxIssues = 50;

/** An object or array being read: the pointer segment of its current member is `index`, or its key's JSON token. */
interface Frame {
  array: boolean;
  index: number;
  keyToken: string;
  /** The member names an object has given so far: a parse keeps only the last of two alike. */
  names?: Set<string>;
}

/**
 * The places of a JSON text (one JSON.parse accepts) that would not be kept as sent: the first object or array
 * nested deeper than `maxJsonDepth` (reading stops there), and every number whose 64-bit float value differs
 * from the number written (`1e400` becomes Infinity, stored as null; `9007199254740993` becomes
 * `9007199254740992`; `1e-400` becomes 0), and every member whose name its object gave before (a parse keeps
 * the last one only, RFC 8259 §4). Iterative, so any depth is read without recursion.
 */
export function jsonFidelityIssues(text: string): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  const stack: Frame[] = [];
  const pointer = () =>
    stack
      .map((frame) => {
        if (frame.array) return `/${frame.index}`;
        return `/${(JSON.parse(frame.keyToken) as string).replace(/~/g, "~0").replace(/\//g, "~1")}`;
      })
      .join("");
  let expectKey = false;
  for (let i = 0; i < text.length && issues.length < maxIssues; ) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      // { [
      if (stack.length + 1 > maxJsonDepth) {
        issues.push({
          pointer: pointer(),
          detail: `is nested deeper than ${maxJsonDepth} levels of objects and arrays`,
        });
        return issues;
      }
      stack.push({ array: c === 0x5b, index: 0, keyToken: '""', ...(c === 0x7b ? { names: new Set<string>() } : {}) });
      expectKey = c === 0x7b;
      i += 1;
    } else if (c === 0x7d || c === 0x5d) {
      // } ]
      stack.pop();
      expectKey = false;
      i += 1;
    } else if (c === 0x2c) {
      // ,
      const top = stack[stack.length - 1]!;
      if (top.array) top.index += 1;
      else expectKey = true;
      i += 1;
    } else if (c === 0x22) {
      // "
      const end = stringEnd(text, i);
      if (expectKey) {
        const top = stack[stack.length - 1]!;
        top.keyToken = text.slice(i, end);
        expectKey = false;
        const name = JSON.parse(top.keyToken) as string;
        if (top.names?.has(name))
          issues.push({
            pointer: pointer(),
            detail: "is given more than once in its object (only the last would be kept)",
          });
        top.names?.add(name);
      }
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // - 0-9
      let end = i + 1;
      while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end += 1;
      // Up to 15 significant digits without an exponent are always exact: most numbers stop here.
      if (end - i > 15 || text.slice(i, end).search(/[eE]/) >= 0) {
        const change = numberChange(text.slice(i, end));
        if (change) issues.push({ pointer: pointer(), detail: change });
      }
      i = end;
    } else {
      // Whitespace, ':', true, false, null.
      i += 1;
    }
  }
  return issues;
}

/** The index just after the string token that starts at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    // Unterminated (not JSON): the rest of the text.
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Digits, '.', 'e', 'E', '+', '-': the characters a JSON number token continues with. */
function isNumberCharacter(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** How parsing changes a JSON number token, or undefined when its 64-bit float value is the number written. */
function numberChange(token: string): string | undefined {
  const value = Number(token);
  if (!Number.isFinite(value))
    return `${token} is beyond the range of a 64-bit floating-point number (it would be stored as null)`;
  if (sameDecimal(token, String(value))) return undefined;
  return `${token} is not exactly a 64-bit floating-point number (it would be stored as ${JSON.stringify(value)})`;
}

/** Whether two decimal numerals (JSON or JavaScript's String(number) form) name the same number; zero's sign is ignored. */
function sameDecimal(a: string, b: string): boolean {
  const x = canonical(a);
  const y = canonical(b);
  return x.digits === y.digits && x.exponent === y.exponent && (x.digits === "" || x.negative === y.negative);
}

/** A numeral as its sign, its significant digits without leading or trailing zeros, and the power of ten of the last one. */
function canonical(numeral: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral)!;
  const fraction = match[3] ?? "";
  let digits = `${match[2]}${fraction}`.replace(/^0+/, "");
  let exponent = Number(match[4] ?? 0) - fraction.length;
  const trailing = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: match[1] === "-", digits, exponent: digits === "" ? 0 : exponent };
}
