/** Maps database rows to records for both adapters; status READY is derived from ready_us so every process agrees (D-53). */

import type { DeploymentRenderer } from "../domain/deployment-renderer.js";
import type {
  DeploymentRecord,
  NewDeployment,
  OAuthProviderRecord,
  RevisionRecord,
  TracingProjectRecord,
} from "../domain/records.js";

type Row = Record<string, unknown>;

/** SQLite gives numbers, pg gives BIGINT as strings. */
const num = (value: unknown): number => Number(value);
const bool = (value: unknown): boolean => value === true || value === 1;
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** A deployment as of nowUs: provisioning that ended is READY with its active revision even before it is stored. */
export function toDeploymentRecord(row: Row, nowUs: number): DeploymentRecord {
  const readyUs = num(row.ready_us);
  const provisioned = row.status === "AWAITING_DATABASE" && readyUs <= nowUs;
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    seq: num(row.seq),
    name: String(row.name),
    source: String(row.source),
    status: provisioned ? "READY" : String(row.status),
    sourceConfig: JSON.parse(String(row.source_config)) as Record<string, unknown>,
    sourceRevisionConfig: JSON.parse(String(row.source_revision_config)) as Record<string, unknown>,
    secrets: JSON.parse(String(row.secrets)) as DeploymentRecord["secrets"],
    secretReferences: row.secret_references === null ? null : (JSON.parse(String(row.secret_references)) as unknown[]),
    imageVersion: text(row.image_version),
    listenerId: text(row.listener_id),
    latestRevisionId: text(row.latest_revision_id),
    activeRevisionId: provisioned ? text(row.latest_revision_id) : text(row.active_revision_id),
    createdUs: num(row.created_us),
    updatedUs: provisioned ? readyUs : num(row.updated_us),
    readyUs,
  };
}

export function toOAuthProviderRecord(row: Row): OAuthProviderRecord {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    providerId: String(row.provider_id),
    name: String(row.name),
    clientId: String(row.client_id),
    authUrl: String(row.auth_url),
    tokenUrl: String(row.token_url),
    sealedClientSecret: text(row.sealed_client_secret),
    usesPkce: bool(row.uses_pkce),
    codeChallengeMethod: text(row.code_challenge_method),
    providerType: text(row.provider_type),
    mcpServerUrl: text(row.mcp_server_url),
    tokenEndpointAuthMethod: String(row.token_endpoint_auth_method),
    isDynamicClient: bool(row.is_dynamic_client),
    createdUs: num(row.created_us),
    updatedUs: num(row.updated_us),
  };
}

export function toRevisionRecord(row: Row, nowUs: number, readyUs: number): RevisionRecord {
  const deployed = row.status === "QUEUED" && readyUs <= nowUs;
  return {
    id: String(row.id),
    deploymentId: String(row.deployment_id),
    tenantId: String(row.tenant_id),
    status: deployed ? "DEPLOYED" : String(row.status),
    sourceRevisionConfig: JSON.parse(String(row.source_revision_config)) as Record<string, unknown>,
    createdUs: num(row.created_us),
  };
}

export function toTracingProjectRecord(row: Row): TracingProjectRecord {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    name: String(row.name),
    deploymentId: String(row.deployment_id),
    createdUs: num(row.created_us),
  };
}

/**
 * The deployment an insert stored, as of nowUs, built from what was inserted rather than read back:
 * the same record toDeploymentRecord makes of the row (READY once its ready time has passed, D-53).
 */
export function insertedDeploymentRecord(
  d: NewDeployment,
  seq: number,
  createdUs: number,
  readyUs: number,
  nowUs: number,
): DeploymentRecord {
  const record = newDeploymentRecord(d, seq, createdUs, readyUs);
  if (readyUs > nowUs) return record;
  return { ...record, status: "READY", activeRevisionId: record.latestRevisionId, updatedUs: readyUs };
}

/** A new deployment as the insert stores it: provisioning, no active revision yet. */
function newDeploymentRecord(d: NewDeployment, seq: number, createdUs: number, readyUs: number): DeploymentRecord {
  return {
    id: d.id,
    tenantId: d.tenantId,
    seq,
    name: d.name,
    source: d.source,
    status: "AWAITING_DATABASE",
    sourceConfig: d.sourceConfig,
    sourceRevisionConfig: d.sourceRevisionConfig,
    secrets: d.secrets,
    secretReferences: d.secretReferences,
    imageVersion: d.imageVersion,
    listenerId: d.listenerId,
    latestRevisionId: d.revisionId,
    activeRevisionId: null,
    createdUs,
    updatedUs: createdUs,
    readyUs,
  };
}

/** The values of `deploymentInsertColumns`, in the order both adapters bind them; the last is the response text (D-83). */
export function deploymentInsertValues(
  d: NewDeployment,
  seq: number,
  createdUs: number,
  readyUs: number,
  renderer: DeploymentRenderer,
): unknown[] {
  return [
    d.id,
    d.tenantId,
    seq,
    d.name,
    d.name.toLowerCase(),
    d.source,
    "AWAITING_DATABASE",
    JSON.stringify(d.sourceConfig),
    JSON.stringify(d.sourceRevisionConfig),
    JSON.stringify(d.secrets),
    d.secretReferences === null ? null : JSON.stringify(d.secretReferences),
    d.imageVersion,
    d.listenerId,
    d.revisionId,
    null,
    createdUs,
    createdUs,
    readyUs,
    renderer.text(newDeploymentRecord(d, seq, createdUs, readyUs)),
  ];
}

export const deploymentColumns =
  "id, tenant_id, seq, name, name_lower, source, status, source_config, source_revision_config, secrets, " +
  "secret_references, image_version, listener_id, latest_revision_id, active_revision_id, created_us, updated_us, ready_us";

/** The columns of a deployment insert: the record's and its stored response text. */
export const deploymentInsertColumns = `${deploymentColumns}, rendered`;

/** What a page of stored texts reads per row: the text and what decides whether provisioning has ended since it was stored. */
export const deploymentTextColumns = "rendered, status, ready_us, latest_revision_id";
