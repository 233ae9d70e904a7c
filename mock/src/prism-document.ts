/** The document Prism serves: the contract with its JSON Schema dialect declared (D-62: Prism reads 3.1 schemas as draft-07 without it). */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { document, documentPath } from "../../contract/index.js";
import { missingStaticPeers } from "./prism-process.js";

/**
 * JSON Schema 2020-12. Prism 5.14 (@stoplight/http-spec) validates every schema of a document without
 * `jsonSchemaDialect` as draft-07, where `unevaluatedProperties` is an unknown keyword and silently
 * ignored (a label with a number value passes). With the dialect declared it uses Ajv's 2020 validator.
 */
const prismDialect = "https://json-schema.org/draft/2020-12/schema";

/** A document written for Prism, and how to remove it. */
interface PrismDocument {
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
  // Loaded here, not at the top: the stateful mock imports this module too and never needs Redocly.
  const { bundle, createConfig } = await import("@redocly/openapi-core").catch(() => {
    throw missingStaticPeers();
  });
  const config = await createConfig({});
  const { bundle: dereferenced } = await bundle({ ref: documentPath, config, dereference: true });
  const { openapi, ...rest } = unevaluatedAsAdditional(flattenNullable(dereferenced.parsed as typeof document));
  const dir = await mkdtemp(join(tmpdir(), "prism-document-"));
  const path = join(dir, "openapi.json");
  await writeFile(path, JSON.stringify({ openapi, jsonSchemaDialect: prismDialect, ...rest }));
  return { path, dialectAdded, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * `anyOf: [{type: T, ...}, {type: "null"}]` → `{type: [T, "null"], ...}`, the same set of values in JSON
 * Schema when the first branch has no `enum`, `const` or combinator of its own (its other keywords only
 * apply to values of type T). Prism's json-schema-faker 0.5 walks generated values through
 * `schema.items` and `schema.properties` and crashes (`reading 'items'` of undefined) when an array or
 * object sits behind an `anyOf` or a `$ref`, which made `--dynamic` fail on about half of the
 * deployment answers (nullable container arrays of resource_spec). Applied to the dereferenced document.
 */
function flattenNullable<T>(node: T): T {
  if (Array.isArray(node)) return node.map(flattenNullable) as T;
  if (node === null || typeof node !== "object") return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, flattenNullable(value)])) as Record<
    string,
    unknown
  >;
  const branches = copy.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return copy as T;
  const isNull = (branch: Record<string, unknown>) => branch.type === "null" && Object.keys(branch).length === 1;
  const typed = (branches as Array<Record<string, unknown>>).find((branch) => !isNull(branch));
  const mergeable =
    typed !== undefined &&
    (branches as Array<Record<string, unknown>>).some(isNull) &&
    typeof typed.type === "string" &&
    ["enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref"].every((keyword) => !(keyword in typed));
  if (!mergeable) return copy as T;
  const { anyOf: _replaced, ...siblings } = copy;
  return { ...typed, ...siblings, type: [typed.type, "null"] } as T;
}

/** In-place applicators: with none of them beside it, `unevaluatedProperties` means what `additionalProperties` means. */
const inPlaceApplicators = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$dynamicRef",
  "dependentSchemas",
];

/**
 * `unevaluatedProperties: S` → `additionalProperties: S` where no in-place applicator stands beside it
 * (the same set of values). json-schema-faker 0.5 ignores `unevaluatedProperties` and generates maps of
 * any values, so a generated label or annotation was a number as often as a string.
 */
function unevaluatedAsAdditional<T>(node: T): T {
  if (Array.isArray(node)) return node.map(unevaluatedAsAdditional) as T;
  if (node === null || typeof node !== "object") return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, unevaluatedAsAdditional(value)]),
  ) as Record<string, unknown>;
  if (
    !("unevaluatedProperties" in copy) ||
    "additionalProperties" in copy ||
    inPlaceApplicators.some((keyword) => keyword in copy)
  )
    return copy as T;
  const { unevaluatedProperties, ...rest } = copy;
  return { ...rest, additionalProperties: unevaluatedProperties } as T;
}
