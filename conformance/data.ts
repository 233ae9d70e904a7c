/** Valid request bodies per the per-source rules (D-48) and names carrying the run prefix. */
import type { Hosting } from "./config.js";

export type Source = "codehost" | "external_container" | "internal_container" | "internal_source" | "internal_template";

/** Sources available for each hosting kind (interface-spec rules 2 and 3). */
export const sourcesFor: Record<Hosting, Source[]> = {
  cloud: ["codehost", "internal_container", "internal_source", "internal_template"],
  self_hosted: ["external_container"],
};

export const allSources: Source[] = [
  "codehost",
  "external_container",
  "internal_container",
  "internal_source",
  "internal_template",
];

/** A run id: 6 lowercase letters and digits. */
export function newRunId(random: () => number = Math.random): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 6; i++) id += alphabet[Math.floor(random() * alphabet.length)];
  return id;
}

/** The name prefix of a run: `cf-<runId>-` (letters, digits, dashes; starts with a letter). */
export function runPrefix(runId: string): string {
  return `cf-${runId}-`;
}

/** A minimal valid OAuth provider creation body. */
export function providerBody(providerId: string): Record<string, unknown> {
  return {
    provider_id: providerId,
    name: `Conformance ${providerId}`,
    client_id: `client-${providerId}`,
    auth_url: "https://auth.example.com/oauth/authorize",
    token_url: "https://auth.example.com/oauth/token",
  };
}

/** A repository record as operation 3 returns it (the fields rule 4 copies). */
export interface RepositoryRecord {
  host_integration_id: string;
  url: string;
  default_branch: string;
  name: string;
  owner: string;
  id: number;
}

/** A valid deployment creation body for a source (D-48); codehost needs a repository record (rule 4). */
export function deploymentBody(name: string, source: Source, repository?: RepositoryRecord): Record<string, unknown> {
  const base = { name, source, secrets: [] as unknown[] };
  switch (source) {
    case "codehost":
      if (!repository) throw new Error("a codehost deployment needs a repository record");
      return {
        ...base,
        source_config: { integration_id: repository.host_integration_id, repo_url: repository.url },
        source_revision_config: { repo_ref: repository.default_branch, graph_config_path: "graph.json" },
      };
    case "external_container":
      return {
        ...base,
        source_config: {},
        source_revision_config: { image_uri: "registry.example.com/conformance/app:1.2.3" },
      };
    case "internal_container":
      return {
        ...base,
        source_config: {},
        source_revision_config: { image_uri: "registry.example.com/conformance/app:1.2.3" },
      };
    case "internal_source":
      return {
        ...base,
        source_config: {},
        source_revision_config: { source_tarball_path: "uploads/conformance.tar.gz", graph_config_path: "graph.json" },
      };
    case "internal_template":
      return { ...base, source_config: {}, source_revision_config: {} };
  }
}

/** The simplest source the hosting kind accepts without an integration. */
export function plainSource(hosting: Hosting): Source {
  return hosting === "cloud" ? "internal_template" : "external_container";
}

/** The image tag of the container bodies above (D-39 to D-45: image_version is the tag of image_uri). */
export const containerImageTag = "1.2.3";
