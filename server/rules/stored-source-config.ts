/** What a deployment stores of its source settings (D-04, D-48, D-52): every field present (null when not given), ids lowercased, cpu values rounded. */
import type { SourceConfig, SourceRevisionConfig, SourceRevisionConfigCreate } from "../../contract/schemas.js";
import { normalizeResourceSpec } from "./resource-spec.js";

/** The stored `source_config`: only the fields of the contract, which validation already ensured. */
export function storedSourceConfig(config: SourceConfig): SourceConfig {
  return {
    integration_id: config.integration_id ? config.integration_id.toLowerCase() : null,
    repo_url: config.repo_url ?? null,
    build_on_push: config.build_on_push ?? null,
    custom_url: config.custom_url ?? null,
    resource_spec: config.resource_spec ? normalizeResourceSpec(config.resource_spec) : null,
    listener_id: config.listener_id ? config.listener_id.toLowerCase() : null,
    listener_config: config.listener_config ?? null,
    install_command: config.install_command ?? null,
    build_command: config.build_command ?? null,
  };
}

/** The stored `source_revision_config`, with the commit `repo_ref` resolved to (null for sources without a repository). */
export function storedSourceRevisionConfig(
  config: SourceRevisionConfigCreate,
  commitSha: string | null,
): SourceRevisionConfig {
  return {
    repo_ref: config.repo_ref ?? null,
    graph_config_path: config.graph_config_path ?? null,
    image_uri: config.image_uri ?? null,
    source_tarball_path: config.source_tarball_path ?? null,
    repo_commit_sha: commitSha,
  };
}
