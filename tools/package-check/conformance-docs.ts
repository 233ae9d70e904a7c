/**
 * `npx tsx tools/package-check/conformance-docs.ts [--check]`: writes the generated parts of the suite's reference
 * docs, between `<!-- generated:NAME -->` and `<!-- /generated -->`: the flags from the command's usage
 * (conformance/cli/run-config.ts) in conformance/docs/flags.md, and every check from the registry in
 * conformance/docs/checks.md. With --check it writes nothing and exits 1 naming each stale part (a test runs it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { allChecks, areas } from "../../conformance/checks/index.js";
import { envName, usage } from "../../conformance/cli/run-config.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");

/** One flag of `--help`: how it is written and what it does. */
interface UsageFlag {
  spelling: string;
  help: string;
}

/** The flags of a usage text: lines that start `  -`, each with the lines indented under it. */
export function usageFlags(text: string): UsageFlag[] {
  const flags: UsageFlag[] = [];
  for (const line of text.split("\n")) {
    const start = /^ {2}(-\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (start) flags.push({ spelling: start[1]!.trim(), help: (start[2] ?? "").trim() });
    else if (/^ {5,}\S/.test(line) && flags.length > 0) {
      const last = flags[flags.length - 1]!;
      last.help = `${last.help} ${line.trim()}`.trim();
    }
  }
  return flags;
}

/** A table cell: pipes escaped, so a value such as `must|should` stays in its cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** The long name of a flag's spelling: `-H, --header 'Name: value'` → `header`. */
function longName(spelling: string): string | undefined {
  return /--([a-z][a-z-]*)/.exec(spelling)?.[1];
}

/** Flags that only print something and exit: no environment variable or config key sets them. */
const commandOnly = new Set(["list", "help"]);

/** The flag table: each flag, its environment variable and what it does, in the order of `--help`. */
export function flagTable(text = usage()): string {
  const rows = usageFlags(text).map(({ spelling, help }) => {
    const name = longName(spelling);
    const env = name && !commandOnly.has(name) ? `\`${envName(name)}\`` : "";
    return `| \`${cell(spelling)}\` | ${env} | ${cell(help)} |`;
  });
  return ["| Flag | Environment variable | What it does |", "|---|---|---|", ...rows].join("\n");
}

/** The check tables: one per area, in run order, each check with its level, statement, pointer and needs. */
function checkTables(): string {
  const sections = Object.entries(areas).map(([area, checks]) => {
    const rows = checks.map(
      (c) =>
        `| \`${c.id}\` | ${c.level} | ${cell(c.statement)} | ${cell(c.specRef)} | ${c.needs.map((n) => `\`${n}\``).join(", ")} |`,
    );
    return [
      `### ${area} (${checks.length})`,
      "",
      "| Id | Level | What it checks | Rule | Needs |",
      "|---|---|---|---|---|",
      ...rows,
    ].join("\n");
  });
  const must = allChecks.filter((c) => c.level === "MUST").length;
  return [
    `${allChecks.length} checks: ${must} MUST, ${allChecks.length - must} SHOULD, in ${sections.length} areas, in run order.`,
    "",
    sections.join("\n\n"),
  ].join("\n");
}

/** Each generated part: the file it stands in, its marker name and its text now. */
function parts(): Array<{ file: string; name: string; text: string }> {
  return [
    { file: "conformance/docs/flags.md", name: "flags", text: flagTable() },
    { file: "conformance/docs/checks.md", name: "checks", text: checkTables() },
  ];
}

/** A file's text with the part between its markers replaced; throws when the markers are missing. */
export function withPart(document: string, name: string, text: string): string {
  const marker = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated -->)`);
  if (!marker.test(document)) throw new Error(`no <!-- generated:${name} --> … <!-- /generated --> markers`);
  return document.replace(marker, (_, open: string, close: string) => `${open}\n${text}\n${close}`);
}

/** Writes every stale part (or, with `check`, only names them); returns the stale files. */
export function updateDocs({ check }: { check: boolean }): string[] {
  const stale: string[] = [];
  for (const part of parts()) {
    const path = join(repoRoot, part.file);
    const before = readFileSync(path, "utf8");
    const after = withPart(before, part.name, part.text);
    if (after === before) continue;
    stale.push(part.file);
    if (!check) writeFileSync(path, after);
  }
  return stale;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { check: { type: "boolean" } } });
  const stale = updateDocs({ check: values.check === true });
  if (values.check && stale.length > 0) {
    console.error(
      `stale: ${stale.join(", ")}: run npx tsx tools/package-check/conformance-docs.ts to write the generated parts`,
    );
    process.exit(1);
  }
  console.log(stale.length > 0 ? `wrote ${stale.join(", ")}` : "the generated parts are up to date");
}
