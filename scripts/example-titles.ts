/** Prints the markdown table of the titled examples per operation, for the client-teams README (`Prefer: example=<title>`). */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { listOperations, type OpenApiDocument } from "./openapi-document.js";
import { contractDocumentPath } from "./mock/prism-document.js";

/** One titled response example: what `Prefer: example=<title>` (with `Prefer: code=<status>` for errors) serves. */
export interface TitledExample {
  operationId: string;
  method: string;
  path: string;
  status: number;
  contentType: string;
  title: string;
  /** The example's description, if any. */
  description: string;
  /** Whether Prism serves it without a `Prefer: code=` (it is an example of the success status). */
  success: boolean;
  /** Whether Prism serves it without any `Prefer` header (the first example of the success status). */
  isDefault: boolean;
  value: unknown;
}

/** Every titled response example of the document: operations in path order, statuses ascending, examples in document order. */
export function titledExamples(document: OpenApiDocument): TitledExample[] {
  const rows: TitledExample[] = [];
  for (const entry of listOperations(document)) {
    const statuses = Object.keys(entry.operation.responses).sort((a, b) => Number(a) - Number(b));
    for (const status of statuses) {
      for (const [contentType, media] of Object.entries(entry.operation.responses[status]?.content ?? {})) {
        const examples = (media.examples ?? {}) as Record<string, { value: unknown; description?: string }>;
        Object.keys(examples).forEach((title, index) => {
          rows.push({
            operationId: entry.operationId,
            method: entry.method.toUpperCase(),
            path: entry.path,
            status: Number(status),
            contentType,
            title,
            description: examples[title]!.description ?? "",
            success: Number(status) === entry.successStatus,
            isDefault: Number(status) === entry.successStatus && index === 0,
            value: examples[title]!.value,
          });
        });
      }
    }
  }
  return rows;
}

/** The markdown table: one row per titled example with the headers that select it. */
export function exampleTitleTable(examples: TitledExample[]): string {
  const lines = ["| Operation | Status | `Prefer` header | What it shows |", "|---|---|---|---|"];
  for (const example of examples) {
    const prefer = example.success ? `example=${example.title}` : `code=${example.status}, example=${example.title}`;
    const operation = `\`${example.operationId}\` ${example.method} \`${example.path}\``;
    const served = example.isDefault ? " Served when no `Prefer` header is sent." : "";
    lines.push(`| ${operation} | ${example.status} | \`Prefer: ${prefer}\` | ${example.description.replace(/\|/g, "\\|")}${served} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const document = JSON.parse(await readFile(contractDocumentPath, "utf8")) as OpenApiDocument;
  console.log(exampleTitleTable(titledExamples(document)));
}
