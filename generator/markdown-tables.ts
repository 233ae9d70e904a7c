/** Reads the sections and pipe tables of a markdown document (used to walk the interface spec's tables). */

/** One pipe table: its header cells and its rows keyed by header. */
export interface MarkdownTable {
  header: string[];
  rows: Array<Record<string, string>>;
}

/** One heading with the text and tables up to the next heading. */
export interface MarkdownSection {
  heading: string;
  level: number;
  text: string;
  tables: MarkdownTable[];
}

/** Splits a document into sections by heading (any level) and parses the tables of each. */
export function parseMarkdownSections(markdown: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection = { heading: "", level: 0, text: "", tables: [] };
  let tableLines: string[] = [];
  const flushTable = () => {
    if (tableLines.length >= 2) current.tables.push(parseTable(tableLines));
    tableLines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flushTable();
      sections.push(current);
      current = { heading: heading[2]!.trim(), level: heading[1]!.length, text: "", tables: [] };
      continue;
    }
    if (line.trimStart().startsWith("|")) tableLines.push(line);
    else flushTable();
    current.text += `${line}\n`;
  }
  flushTable();
  sections.push(current);
  return sections.filter((section) => section.heading !== "" || section.text.trim() !== "");
}

/** The one section with this exact heading; throws when it is missing or ambiguous. */
export function sectionByHeading(sections: MarkdownSection[], heading: string): MarkdownSection {
  const found = sections.filter((section) => section.heading === heading);
  if (found.length !== 1) throw new Error(`expected one section "${heading}", found ${found.length}`);
  return found[0]!;
}

/** Parses the lines of a pipe table (header, separator, rows). */
function parseTable(lines: string[]): MarkdownTable {
  const header = splitRow(lines[0]!);
  if (!/^\s*\|?\s*:?-{3,}/.test(lines[1]!)) throw new Error(`not a table separator: ${lines[1]}`);
  const rows = lines.slice(2).map((line) => {
    const cells = splitRow(line);
    return Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ""]));
  });
  return { header, rows };
}

/** Cells of one table line; `\|` inside a cell is a literal bar. */
function splitRow(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, "|").trim());
}

/** The backtick-quoted words of a cell, in order, without repeats. */
export function codeSpans(text: string): string[] {
  return [...new Set([...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!))];
}
