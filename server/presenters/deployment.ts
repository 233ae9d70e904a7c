/** The Deployment response record (interface spec: Deployment) from a stored deployment: secrets masked, every config field present. */
import type { Deployment } from "../../contract/schemas.js";
import type { DeploymentRecord } from "../domain/records.js";
import { maskSecrets } from "../rules/secrets.js";
import { isoFromMicros } from "./timestamps.js";

export function presentDeployment(record: DeploymentRecord): Deployment {
  return {
    name: record.name,
    source: record.source as Deployment["source"],
    source_config: record.sourceConfig as Deployment["source_config"],
    source_revision_config: record.sourceRevisionConfig as Deployment["source_revision_config"],
    secrets: maskSecrets(record.secrets),
    id: record.id,
    tenant_id: record.tenantId,
    created_at: isoFromMicros(record.createdUs),
    updated_at: isoFromMicros(record.updatedUs),
    status: record.status as Deployment["status"],
    latest_revision_id: record.latestRevisionId,
    active_revision_id: record.activeRevisionId,
    secret_references: record.secretReferences as Deployment["secret_references"],
    image_version: record.imageVersion,
  };
}
