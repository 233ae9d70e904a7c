/** Dereferences an OpenAPI document with Redocly, keeping each component schema's name as `x-component` so changes can name it. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle, createConfig } from "@redocly/openapi-core";

/** A plain JSON value of a dereferenced document. */
// biome-ignore lint/suspicious/noExplicitAny: the classifier walks schemas of any shape, keyword by keyword
export type Json = Record<string, any>;

/** The extension that carries a component schema's name into every place that referenced it. */
export const componentKey = "x-component";

/**
 * Returns the document with every `$ref` replaced by its target. Redocly copies the target, so the
 * component's name would be lost: it is written into each component schema first.
 */
export async function dereference(text: string): Promise<Json> {
  const document = JSON.parse(text) as Json;
  for (const [name, schema] of Object.entries((document.components?.schemas ?? {}) as Record<string, Json>))
    schema[componentKey] = name;
  const dir = mkdtempSync(join(tmpdir(), "contract-deref-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
    const { bundle: bundled } = await bundle({ ref: file, config: await createConfig({}), dereference: true });
    return bundled.parsed as Json;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
