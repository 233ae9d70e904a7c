/** The per-source table of D-48 as the suite reads it: R required, O optional, F forbidden, with a schema-valid sample value per field (contract/source-rules.ts). */
import { type SourceRule, sourceFields } from "../../contract/source-rules.js";
import type { Hosting } from "../cli/run-config.js";
import { type Source, sourcesFor } from "./data.js";

/** Field path (`source_config.x`, `source_revision_config.x` or a top-level field) → rule per source (D-48). */
export const perSourceRules: Record<string, Record<Source, SourceRule>> = Object.fromEntries(
  sourceFields.map((row) => [row.field, row.rules]),
);

/** A value of the field that passes the schema, so only the per-source rule can refuse it. */
export function ruleSample(path: string): unknown {
  return sourceFields.find((row) => row.field === path)?.sample;
}

/** Whether the source forbids the field at `path` (`a.b.c`) or a field that holds it (D-48). */
export function forbiddenFor(path: string, source: Source): boolean {
  const parts = path.split(".");
  return parts.some((_, i) => perSourceRules[parts.slice(0, i + 1).join(".")]?.[source] === "F");
}

/** Whether a create body for some source of the hosting kind may hold the field at `path` (D-46, D-48). */
export function sendableIn(hosting: Hosting, path: string): boolean {
  return sourcesFor[hosting].some((source) => !forbiddenFor(path, source));
}
