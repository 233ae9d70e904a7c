/**
 * The per-source table of spec/decisions.md (D-48), rendered from spec/source-rules.json (D-200) between two marker
 * comments; `npm run generate` writes it and `npm run check:generated` fails when the document differs.
 */
import { readFileSync } from "node:fs";
import { deploymentSources, everySourceFields, sourceFields } from "../contract/source-rules.js";

/** The decisions document that holds the table. */
export const decisionsPath = new URL("../spec/decisions.md", import.meta.url);

const begin = "<!-- per-source table: generated from spec/source-rules.json by `npm run generate`; do not edit -->";
const end = "<!-- end of the per-source table -->";

/** The markdown table: a row per field, a column per source, R / O / F with the table's notes. */
function sourceRulesMarkdown(): string {
  const header = `| Field | ${deploymentSources.map((source) => `\`${source}\``).join(" | ")} |`;
  const separator = `|---|${deploymentSources.map(() => "---").join("|")}|`;
  const rows = sourceFields.map((row) => {
    const cells = deploymentSources.map((source) => {
      const note = row.notes?.[source];
      return note ? `${row.rules[source]} (${note})` : row.rules[source];
    });
    return `| \`${row.field}\` | ${cells.join(" | ")} |`;
  });
  const everySource = everySourceFields.map(
    (row) => `| \`${row.field}\` (${row.note}) | ${deploymentSources.map(() => "O").join(" | ")} |`,
  );
  return [header, separator, ...rows, ...everySource].join("\n");
}

/** The document with the table between its markers replaced by the rendered one; throws when the markers are missing. */
export function withSourceRulesTable(document: string): string {
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`spec/decisions.md lacks the per-source table markers:\n${begin}\n${end}`);
  return `${document.slice(0, from + begin.length)}\n\n${sourceRulesMarkdown()}\n\n${document.slice(to)}`;
}

/** spec/decisions.md as it stands and as it should read. */
export function decisionsDocument(): { current: string; fresh: string } {
  const current = readFileSync(decisionsPath, "utf8");
  return { current, fresh: withSourceRulesTable(current) };
}
