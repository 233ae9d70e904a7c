/** The per-source table of D-48 as the suite reads it: R required, O optional, F forbidden, with a schema-valid sample value per field (contract/source-rules.ts). */
import { type SourceRule, sourceFields } from "../../contract/source-rules.js";
import type { Source } from "./data.js";

/** Field path (`source_config.x`, `source_revision_config.x` or a top-level field) → rule per source (D-48). */
export const perSourceRules: Record<string, Record<Source, SourceRule>> = Object.fromEntries(
  sourceFields.map((row) => [row.field, row.rules]),
);

/** A value of the field that passes the schema, so only the per-source rule can refuse it. */
export function ruleSample(path: string): unknown {
  return sourceFields.find((row) => row.field === path)?.sample;
}
