/**
 * `npm run interface-tables`: transcribes the interface specification, section by section with its tables, into
 * spec/interface-tables.json, so that the repository checks its contract and its inventory of normative statements
 * (docs/normative-coverage.md) with nothing beside it. With `--check`, compares instead of writing (the drift test runs it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type MarkdownSection, parseMarkdownSections } from "./markdown-tables.js";

/** The in-repository copy of the tables. */
export const interfaceTablesPath = resolve(import.meta.dirname, "..", "spec", "interface-tables.json");

/** What spec/interface-tables.json holds. */
export interface InterfaceTables {
  $comment: string;
  /** Every section of the interface specification, in the document's order. */
  sections: MarkdownSection[];
}

/** The tables of an interface specification written in markdown. */
export function extractInterfaceTables(markdown: string): InterfaceTables {
  return {
    $comment:
      "Transcribed from the interface specification by `npm run interface-tables`; generator/interface-tables-drift.test.ts checks it against that file whenever it is present. Do not edit by hand.",
    sections: parseMarkdownSections(markdown),
  };
}

/** The tables as the repository holds them. */
export function loadInterfaceTables(): InterfaceTables {
  return JSON.parse(readFileSync(interfaceTablesPath, "utf8")) as InterfaceTables;
}

/** The file's text for the given tables. */
export function interfaceTablesText(tables: InterfaceTables): string {
  return `${JSON.stringify(tables, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const source = resolve(process.argv[2] ?? resolve(import.meta.dirname, "..", "..", "shared", "interface-spec.md"));
  writeFileSync(interfaceTablesPath, interfaceTablesText(extractInterfaceTables(readFileSync(source, "utf8"))));
  console.log(`wrote spec/interface-tables.json from ${source}`);
}
