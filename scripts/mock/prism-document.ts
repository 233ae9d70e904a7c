/** The document Prism serves: generated/openapi.json with its JSON Schema dialect declared (mock issue, Prism 3.1 finding). */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The contract's OpenAPI 3.1 document. */
export const contractDocumentPath = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

/**
 * JSON Schema 2020-12. Prism 5.14 (@stoplight/http-spec) validates every schema of a document without
 * `jsonSchemaDialect` as draft-07, where `unevaluatedProperties` is an unknown keyword and silently
 * ignored (a label with a number value passes). With the dialect declared it uses Ajv's 2020 validator.
 */
export const prismDialect = "https://json-schema.org/draft/2020-12/schema";

/** A document written for Prism, and how to remove it. */
export interface PrismDocument {
  path: string;
  /** Whether the dialect had to be added (false once the generator declares it itself). */
  dialectAdded: boolean;
  remove(): Promise<void>;
}

/** Writes the contract with `jsonSchemaDialect` set into a temporary directory. */
export async function writePrismDocument(source = contractDocumentPath): Promise<PrismDocument> {
  const document = JSON.parse(await readFile(source, "utf8")) as Record<string, unknown>;
  const dialectAdded = document.jsonSchemaDialect === undefined;
  if (!dialectAdded && document.jsonSchemaDialect !== prismDialect) {
    throw new Error(`jsonSchemaDialect ${String(document.jsonSchemaDialect)} is not ${prismDialect}; Prism would not validate with it`);
  }
  const { openapi, ...rest } = document;
  const dir = await mkdtemp(join(tmpdir(), "prism-document-"));
  const path = join(dir, "openapi.json");
  await writeFile(path, JSON.stringify({ openapi, jsonSchemaDialect: prismDialect, ...rest }));
  return { path, dialectAdded, remove: () => rm(dir, { recursive: true, force: true }) };
}
