/** Keeps spec/decisions.md quick to read: each row's decision in at most two sentences, a short median row, live links. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const decisionsFile = fileURLToPath(new URL("../spec/decisions.md", import.meta.url));
/** Every check's pointer leads to a row, so the typical row must read in seconds; the reasons live in docs/. */
const maxMedianRowLength = 350;
const maxSentences = 2;

interface Row {
  id: string;
  line: string;
  decision: string;
}

/** The table rows `| D-NN | gap | decision | level | reason |`; `\|` inside a cell is not a separator. */
function rowsOf(markdown: string): Row[] {
  return markdown
    .split("\n")
    .filter((line) => /^\|\s*D-\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      return { id: cells[1]!, line, decision: cells[3] ?? "" };
    });
}

/** Sentences of a cell: each ends with `.`, `!` or `?` before a space or the end; code spans and link targets do not count. */
function sentenceCount(text: string): number {
  const plain = text.replace(/`[^`]*`/g, "code").replace(/\]\([^)]*\)/g, "]");
  const ends = plain.match(/[.!?](?=\s|$)/g)?.length ?? 0;
  return ends === 0 && plain.trim() !== "" ? 1 : ends;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The relative link targets of a line (`path` or `path#anchor`), outside code spans. */
function linkTargets(line: string): string[] {
  const plain = line.replace(/`[^`]*`/g, "");
  return [...plain.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

/** The anchors a markdown file offers: GitHub's slug of each heading (a repeat gets `-1`, `-2`) and each `id="…"`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats === 0 ? slug : `${slug}-${repeats}`);
  }
  for (const match of markdown.matchAll(/\bid="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

describe("reading spec/decisions.md", () => {
  it.each([
    {
      given: "| D-01 | a \\| b | One. Two. | SHOULD | [why](x.md#d-01) |",
      want: [{ id: "D-01", decision: "One. Two." }],
    },
    {
      given: "| D-1 | gap | `a \\| b` stays one cell | MUST | r |",
      want: [{ id: "D-1", decision: "`a \\| b` stays one cell" }],
    },
    { given: "text mentioning | D-99 | elsewhere", want: [] },
  ])("rows of $given", ({ given, want }) => {
    expect(rowsOf(given).map(({ id, decision }) => ({ id, decision }))).toEqual(want);
  });

  it.each([
    { given: "One sentence.", want: 1 },
    { given: "No end mark", want: 1 },
    { given: "One. Two! Three?", want: 3 },
    { given: "A value of 0.5 cores and version 1.2.3 stay one sentence.", want: 1 },
    { given: "Code `a. b. c.` and a [link](../x.md#d-1. y) do not end one.", want: 1 },
    { given: "", want: 0 },
  ])("$want sentences in '$given'", ({ given, want }) => {
    expect(sentenceCount(given)).toBe(want);
  });

  it.each([
    { given: [1, 5, 3], want: 3 },
    { given: [4, 1, 3, 2], want: 2.5 },
  ])("median of $given", ({ given, want }) => {
    expect(median(given)).toBe(want);
  });

  it.each([
    {
      given: "| D-1 | [why](../docs/a.md#d-1), [figures](../docs/b.md#x) |",
      want: ["../docs/a.md#d-1", "../docs/b.md#x"],
    },
    { given: "`[not](a link)` and [web](https://example.com) and [top](#section)", want: ["#section"] },
  ])("link targets of $given", ({ given, want }) => {
    expect(linkTargets(given)).toEqual(want);
  });

  it.each([
    { given: "### D-12\n", want: ["d-12"] },
    { given: "### D-411 deep `name_contains` pages on SQLite\n", want: ["d-411-deep-name_contains-pages-on-sqlite"] },
    {
      given: "## Figures (2026-11-25, a 2-core machine)\n## Figures (2026-11-25, a 2-core machine)\n",
      want: ["figures-2026-11-25-a-2-core-machine", "figures-2026-11-25-a-2-core-machine-1"],
    },
    { given: '<a id="d-7"></a>\n', want: ["d-7"] },
  ])("anchors of $given", ({ given, want }) => {
    expect([...anchorsOf(given)]).toEqual(want);
  });
});

describe("the rows of spec/decisions.md", () => {
  const rows = rowsOf(readFileSync(decisionsFile, "utf8"));

  it("are read", () => {
    expect(rows.length).toBeGreaterThan(80);
  });

  it.each(rows.map((row) => [row.id, row] as const))(
    `%s states its decision in at most ${maxSentences} sentences`,
    (_id, row) => {
      expect(sentenceCount(row.decision), row.decision).toBeLessThanOrEqual(maxSentences);
    },
  );

  it(`have a median length of at most ${maxMedianRowLength} characters`, () => {
    expect(median(rows.map((row) => row.line.length))).toBeLessThanOrEqual(maxMedianRowLength);
  });

  const links = rows.flatMap((row) => linkTargets(row.line).map((target) => [row.id, target] as const));
  const anchorCache = new Map<string, Set<string>>();
  it.each(links)("%s links to %s, which exists", (_id, target) => {
    const [path = "", anchor] = target.split("#");
    const file = path === "" ? decisionsFile : resolve(dirname(decisionsFile), path);
    expect(existsSync(file), `${file} does not exist`).toBe(true);
    if (anchor === undefined) return;
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, "utf8")));
    expect([...anchorCache.get(file)!], `${path} has no heading for #${anchor}`).toContain(anchor);
  });
});
