/** The units of the interface spec an inventory entry must cover: each table row, and each line of prose (item or paragraph) of each section. */
import type { InterfaceTables } from "../../generator/interface-tables.js";

/** One table row (`row` is its first cell) or one line of prose (`text`), under its section's heading. */
export type StatementUnit =
  | { section: string; kind: "row"; row: string; text: string }
  | { section: string; kind: "prose"; text: string };

/** Every unit of the transcribed interface spec, in the document's order. */
export function statementUnits(tables: InterfaceTables): StatementUnit[] {
  const units: StatementUnit[] = [];
  for (const section of tables.sections) {
    for (const table of section.tables)
      for (const row of table.rows) {
        const cells = table.header.map((name) => row[name] ?? "");
        units.push({ section: section.heading, kind: "row", row: cells[0] ?? "", text: cells.join(" | ") });
      }
    for (const line of section.text.split("\n")) {
      const text = line.trim();
      if (text === "" || text.startsWith("|")) continue;
      units.push({ section: section.heading, kind: "prose", text });
    }
  }
  return units;
}
