/** What a deployment stores of its source settings (D-04, D-48, D-52): every field of the contract present (null when not given), ids lowercased, cpu values rounded. */
import { document, type SchemaObject } from "../../contract/document.js";
import type { SourceConfig, SourceRevisionConfig, SourceRevisionConfigCreate } from "../../contract/schemas.js";
import { normalizeResourceSpec } from "./resource-spec.js";

/** The fields of a contract schema, each null: what a stored config holds for a field not given (D-04). */
function nullFields(schema: string): Record<string, null> {
  const properties = (document.components?.schemas?.[schema] as SchemaObject | undefined)?.properties ?? {};
  return Object.fromEntries(Object.keys(properties).map((name) => [name, null]));
}

const sourceConfigNulls = nullFields("SourceConfig");
const sourceRevisionConfigNulls = nullFields("SourceRevisionConfig");

/** The stored `source_config`: every field of the contract (validation removed any other), ids lowercased, the resource spec normalized. */
export function storedSourceConfig(config: SourceConfig): SourceConfig {
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  return {
    ...sourceConfigNulls,
    ...given,
    integration_id: config.integration_id ? config.integration_id.toLowerCase() : null,
    resource_spec: config.resource_spec ? normalizeResourceSpec(config.resource_spec) : null,
    listener_id: config.listener_id ? config.listener_id.toLowerCase() : null,
  };
}

/** The stored `source_revision_config`, with the commit `repo_ref` resolved to (null for sources without a repository). */
export function storedSourceRevisionConfig(
  config: SourceRevisionConfigCreate,
  commitSha: string | null,
): SourceRevisionConfig {
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  return { ...sourceRevisionConfigNulls, ...given, repo_commit_sha: commitSha };
}
