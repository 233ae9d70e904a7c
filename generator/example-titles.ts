/** Prints the markdown table of the titled examples per operation, for mock/README.md (`Prefer: example=<title>`, D-71). */
import { pathToFileURL } from "node:url";
import type { OperationObject } from "openapi3-ts/oas31";
import { document as contractDocument, type OpenAPIObject } from "../contract/index.js";

/** One titled response example: what `Prefer: example=<title>` (with `Prefer: code=<status>` for errors) serves. */
interface TitledExample {
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

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Every titled response example of a document (the contract's by default): operations in path order, statuses ascending, examples in document order. */
export function titledExamples(document: OpenAPIObject = contractDocument): TitledExample[] {
  const rows: TitledExample[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation?.operationId) continue;
      const responses = operation.responses as Record<
        string,
        { content?: Record<string, { examples?: Record<string, { value: unknown; description?: string }> }> }
      >;
      const statuses = Object.keys(responses).sort((a, b) => Number(a) - Number(b));
      // D-06: every operation has exactly one success status.
      const successStatus = Number(statuses.find((status) => /^2\d\d$/.test(status)));
      for (const status of statuses) {
        for (const [contentType, media] of Object.entries(responses[status]?.content ?? {})) {
          const examples = media.examples ?? {};
          Object.keys(examples).forEach((title, index) => {
            rows.push({
              operationId: operation.operationId!,
              method: method.toUpperCase(),
              path,
              status: Number(status),
              contentType,
              title,
              description: examples[title]!.description ?? "",
              success: Number(status) === successStatus,
              isDefault: Number(status) === successStatus && index === 0,
              value: examples[title]!.value,
            });
          });
        }
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
    lines.push(
      `| ${operation} | ${example.status} | \`Prefer: ${prefer}\` | ${example.description.replace(/\|/g, "\\|")}${served} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(exampleTitleTable(titledExamples()));
}
