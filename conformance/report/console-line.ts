/**
 * Keeps a console line readable: a value longer than `valueMax` characters is cut with its length shown (the reports
 * keep it whole), and a prose line longer than `width` is wrapped at spaces; a shell command is never wrapped, since
 * a break inside one of its quoted arguments would change what it sends.
 */

/** The most characters of one value the console shows. */
const valueMax = 120;
/** The widest prose line the console prints before wrapping it. */
const lineWidth = 200;

/** A value cut to `max` characters (code points, so no character is split), followed by its whole length. */
export function cutValue(value: string, max = valueMax): string {
  const characters = Array.from(value);
  if (characters.length <= max) return value;
  return `${characters.slice(0, max).join("")}… (${characters.length} characters)`;
}

/**
 * One value: a single-quoted shell word (its quotes at a word's edges, so the apostrophe of "the key's" opens none),
 * or a run of non-space characters in which a JSON string (quoted, escapes kept) counts whole, spaces and all.
 */
const valuePattern = /(?<!\S)'[^']*'(?!\S)|(?:[^\s"]+|"(?:[^"\\]|\\.)*"|")+/g;

/** Every value of the line longer than `max` characters cut (a quoted value's quotes count as part of it). */
export function cutValues(line: string, max = valueMax): string {
  return line.replace(valuePattern, (value) => cutValue(value, max));
}

/** A line a user copies to run: a curl or replay command, alone or after its label. */
function isCommand(line: string): boolean {
  return /^\s*(?:(?:curl|replay|reproduce):\s+)?(?:printf .*\| )?(?:curl |npx |npm run )/.test(line);
}

/** A prose line broken at spaces into lines of at most `width` characters, each after the first indented 4 more. */
function wrapProse(line: string, width: number): string[] {
  const indent = `${/^\s*/.exec(line)?.[0] ?? ""}    `;
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const at = rest.lastIndexOf(" ", width);
    // no space to break at past the indent: the line stays as long as it is
    if (at <= indent.length) break;
    lines.push(rest.slice(0, at));
    rest = indent + rest.slice(at + 1).trimStart();
  }
  lines.push(rest);
  return lines;
}

/** One console line as printed: its long values cut, and, unless it is a command, wrapped at `width`. */
export function fitConsoleLine(line: string, options: { valueMax?: number; width?: number } = {}): string {
  const cut = cutValues(line, options.valueMax ?? valueMax);
  const width = options.width ?? lineWidth;
  if (cut.length <= width || isCommand(cut)) return cut;
  return wrapProse(cut, width).join("\n");
}

/** Every line of a console text fitted. */
export function fitConsoleText(text: string, options: { valueMax?: number; width?: number } = {}): string {
  return text
    .split("\n")
    .map((line) => fitConsoleLine(line, options))
    .join("\n");
}
