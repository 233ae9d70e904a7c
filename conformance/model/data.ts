/** Valid request bodies per the per-source rules (D-48, the table of contract/source-rules.ts) and names carrying the run prefix. */
import type { DeploymentSource } from "../../contract/schemas.js";
import {
  deploymentSources,
  imageTag,
  sourceFields,
  sourcesAvailableOn,
  writeField,
} from "../../contract/source-rules.js";
import type { Hosting } from "../cli/run-config.js";

export type Source = DeploymentSource;

/** Sources available for each hosting kind (interface-spec rules 2 and 3, D-46). */
export const sourcesFor: Record<Hosting, Source[]> = {
  cloud: sourcesAvailableOn("cloud"),
  self_hosted: sourcesAvailableOn("self_hosted"),
};

export const allSources: Source[] = [...deploymentSources];

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

/**
 * The name label of a record a check may store with values beyond the profile's bounds (a target without them accepts
 * it): `<prefix>oop-…`, a name no other check's `name_contains` filter matches (D-221).
 */
export const outOfProfile = "oop-";

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

/**
 * A valid deployment creation body for a source (D-48): each field the source requires, with the table's sample
 * value; codehost needs a repository record (rule 4), whose fields replace the samples.
 */
export function deploymentBody(name: string, source: Source, repository?: RepositoryRecord): Record<string, unknown> {
  if (source === "codehost" && !repository) throw new Error("a codehost deployment needs a repository record");
  const fromRepository: Record<string, unknown> = repository
    ? {
        "source_config.integration_id": repository.host_integration_id,
        "source_config.repo_url": repository.url,
        "source_revision_config.repo_ref": repository.default_branch,
      }
    : {};
  const body: Record<string, unknown> = {
    name,
    source,
    secrets: [],
    source_config: {},
    source_revision_config: {},
  };
  for (const row of sourceFields) {
    if (row.rules[source] !== "R") continue;
    writeField(body, row.field, row.field in fromRepository ? fromRepository[row.field] : row.sample);
  }
  return body;
}

/** The simplest source the hosting kind accepts without an integration. */
export function plainSource(hosting: Hosting): Source {
  return hosting === "cloud" ? "internal_template" : "external_container";
}

/** The image tag of the container bodies above (D-39 to D-45: image_version is the tag of image_uri). */
export const containerImageTag: string = imageTag(
  sourceFields.find((row) => row.field === "source_revision_config.image_uri")?.sample,
)!;
