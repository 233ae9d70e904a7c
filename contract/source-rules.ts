/**
 * The per-source rules of deployment creation (D-200): spec/source-rules.json, checked and typed. What each source
 * requires, allows or forbids (D-48), where it is available (D-46) and the tag of an image reference (D-42).
 * Imported as JSON, so every bundle (server, suite, mock, browser) carries the table inside it.
 */
import table from "../spec/source-rules.json" with { type: "json" };
import type { DeploymentSource } from "./schemas.js";

/** R required, O allowed (optional), F forbidden: absent or null only (D-48). */
export type SourceRule = "R" | "O" | "F";

/** The hosting kinds a server runs as (D-46). */
type HostingKind = "cloud" | "self_hosted";

/** One row of the table: a field of the create body, by its place in the body (`source_config.x` or a top-level name). */
export interface SourceField {
  field: string;
  rules: Record<DeploymentSource, SourceRule>;
  /** Remarks the decisions table shows beside a cell, by source. */
  notes?: Partial<Record<DeploymentSource, string>>;
  /** The detail of a forbidden value when it is not the usual "is not applicable to '{source}' source". */
  forbiddenDetail?: string;
  /** A schema-valid value of the field, so that only the per-source rule can refuse it. */
  sample: unknown;
}

/** A field every source allows and no rule checks (the schema does), with the decisions table's remark. */
interface EverySourceField {
  field: string;
  note: string;
}

interface SourceRuleTable {
  sources: DeploymentSource[];
  fields: SourceField[];
  everySource: EverySourceField[];
  availability: Record<DeploymentSource, HostingKind>;
  imageReference: { parts: Record<string, string>; pattern: string };
}

const rules = new Set<unknown>(["R", "O", "F"]);
const hostingKinds = new Set<unknown>(["cloud", "self_hosted"]);

/** The table as spec/source-rules.json has it; throws when a row misses a source or holds an unknown rule. */
function checked(data: unknown): SourceRuleTable {
  const t = data as SourceRuleTable;
  const fail = (what: string) => {
    throw new Error(`spec/source-rules.json: ${what}`);
  };
  const sources = new Set(t.sources);
  for (const row of t.fields) {
    if (Object.keys(row.rules).length !== sources.size) fail(`${row.field} names ${Object.keys(row.rules)}`);
    for (const source of t.sources)
      if (!rules.has(row.rules[source])) fail(`${row.field}: rule of ${source} is ${row.rules[source]}`);
  }
  for (const source of t.sources)
    if (!hostingKinds.has(t.availability[source])) fail(`availability of ${source} is ${t.availability[source]}`);
  return t;
}

const sourceRuleTable = checked(table);

/** The sources of the table, in its column order. */
export const deploymentSources: readonly DeploymentSource[] = sourceRuleTable.sources;

/** The rows of the table, in its order (the order of the decisions table and of the server's 400 errors, D-47). */
export const sourceFields: readonly SourceField[] = sourceRuleTable.fields;

/** Fields every source allows that the rules do not check (`secrets`). */
export const everySourceFields: readonly EverySourceField[] = sourceRuleTable.everySource;

/** Where each source can be deployed (D-46). */
export const sourceAvailability: Readonly<Record<DeploymentSource, HostingKind>> = sourceRuleTable.availability;

/** The sources a hosting kind accepts, in table order. */
export function sourcesAvailableOn(hosting: HostingKind): DeploymentSource[] {
  return deploymentSources.filter((source) => sourceAvailability[source] === hosting);
}

/** The sources that carry an image (those that may send `image_uri`): `image_version` is set only for them (D-42). */
export const imageSources: readonly DeploymentSource[] = deploymentSources.filter((source) =>
  sourceFields.some((row) => row.field === "source_revision_config.image_uri" && row.rules[source] !== "F"),
);

/** The value of a table field (`group.name` or a top-level name) in a create body. */
export function readField(body: object, field: string): unknown {
  const [group, name] = field.split(".") as [string, string | undefined];
  const top = (body as Record<string, unknown>)[group];
  return name === undefined ? top : (top as Record<string, unknown> | null | undefined)?.[name];
}

/** Sets a table field in a create body whose groups are objects. */
export function writeField(body: Record<string, unknown>, field: string, value: unknown): void {
  const [group, name] = field.split(".") as [string, string | undefined];
  if (name === undefined) body[group] = value;
  else (body[group] as Record<string, unknown>)[name] = value;
}

const { parts, pattern } = sourceRuleTable.imageReference;
const imageReference = new RegExp(
  Object.entries(parts).reduce((text, [name, part]) => text.replaceAll(`{${name}}`, part), pattern),
);

/** Whether the value is a container image reference (D-42). */
export function isImageReference(value: string): boolean {
  return imageReference.test(value);
}

/** The explicit tag of an image reference, or null: no tag, or not a reference (D-42). */
export function imageTag(imageUri: unknown): string | null {
  if (typeof imageUri !== "string") return null;
  return imageReference.exec(imageUri)?.groups?.tag ?? null;
}
