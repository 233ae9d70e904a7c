/** The document Prism serves: the contract with its JSON Schema dialect declared (D-62: Prism reads 3.1 schemas as draft-07 without it). */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { document } from "../../contract/index.js";

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
export async function writePrismDocument(): Promise<PrismDocument> {
  // openapi3-ts does not type the 3.1 field `jsonSchemaDialect`.
  const declared = (document as { jsonSchemaDialect?: unknown }).jsonSchemaDialect;
  const dialectAdded = declared === undefined;
  if (!dialectAdded && declared !== prismDialect) {
    throw new Error(`jsonSchemaDialect ${String(declared)} is not ${prismDialect}; Prism would not validate with it`);
  }
  const { openapi, ...rest } = document;
  const dir = await mkdtemp(join(tmpdir(), "prism-document-"));
  const path = join(dir, "openapi.json");
  await writeFile(path, JSON.stringify({ openapi, jsonSchemaDialect: prismDialect, ...rest }));
  return { path, dialectAdded, remove: () => rm(dir, { recursive: true, force: true }) };
}
