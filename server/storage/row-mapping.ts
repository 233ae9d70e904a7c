/** Maps database rows to records for both adapters; status READY is derived from ready_us so every process agrees (D-53, deploymentAsOf). */

import type { Deployment } from "../../contract/schemas.js";
import type { DeploymentRenderer } from "../domain/deployment-renderer.js";
import {
  type DeploymentRecord,
  deploymentAsOf,
  maskSecrets,
  type NewDeployment,
  type OAuthProviderFields,
  type OAuthProviderRecord,
  provisionedBy,
  type RevisionRecord,
  type TracingProjectRecord,
} from "../domain/records.js";
import type { CreatedDeployment } from "./store.js";

type Row = Record<string, unknown>;

/** SQLite gives numbers, pg gives BIGINT as strings. */
const num = (value: unknown): number => Number(value);
const bool = (value: unknown): boolean => value === true || value === 1;
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/**
 * A deployment as of nowUs (D-53): the contract's record from its stored text (D-83), its state from the row; a row
 * stored before the text was (rendered NULL) is read from its columns.
 */
export function toDeploymentRecord(row: Row, nowUs: number): DeploymentRecord {
  const stored = row.rendered == null ? legacyDeployment(row) : (JSON.parse(String(row.rendered)) as Deployment);
  const { created_at: _created, updated_at: _updated, ...deployment } = stored;
  const record: DeploymentRecord = {
    deployment: {
      ...deployment,
      status: String(row.status) as Deployment["status"],
      active_revision_id: text(row.active_revision_id),
    },
    seq: num(row.seq),
    secrets: JSON.parse(String(row.secrets)) as DeploymentRecord["secrets"],
    createdUs: num(row.created_us),
    updatedUs: num(row.updated_us),
    readyUs: num(row.ready_us),
  };
  return deploymentAsOf(record, nowUs);
}

/** The record of a row stored before D-83 from its columns (such a row has no field the contract added since). */
function legacyDeployment(row: Row): Deployment {
  return {
    id: String(row.id),
    tenant_id: String(row.tenant_id),
    name: String(row.name),
    source: String(row.source) as Deployment["source"],
    source_config: JSON.parse(String(row.source_config)),
    source_revision_config: JSON.parse(String(row.source_revision_config)),
    secrets: maskSecrets(JSON.parse(String(row.secrets))),
    secret_references: row.secret_references == null ? null : JSON.parse(String(row.secret_references)),
    image_version: text(row.image_version),
    status: String(row.status) as Deployment["status"],
    latest_revision_id: text(row.latest_revision_id),
    active_revision_id: text(row.active_revision_id),
    created_at: "",
    updated_at: "",
  };
}

/** An OAuth provider from its row (D-401): the contract's record from its stored text; a row stored before the text was (rendered NULL) from its columns. */
export function toOAuthProviderRecord(row: Row): OAuthProviderRecord {
  const provider: OAuthProviderFields =
    row.rendered == null
      ? {
          id: String(row.id),
          organization_id: String(row.organization_id),
          provider_id: String(row.provider_id),
          name: String(row.name),
          client_id: String(row.client_id),
          auth_url: String(row.auth_url),
          token_url: String(row.token_url),
          uses_pkce: bool(row.uses_pkce),
          code_challenge_method: text(row.code_challenge_method),
          provider_type: text(row.provider_type),
          mcp_server_url: text(row.mcp_server_url),
          token_endpoint_auth_method: String(row.token_endpoint_auth_method),
          is_dynamic_client: bool(row.is_dynamic_client),
        }
      : (JSON.parse(String(row.rendered)) as OAuthProviderFields);
  return {
    provider,
    sealedClientSecret: text(row.sealed_client_secret),
    createdUs: num(row.created_us),
    updatedUs: num(row.updated_us),
  };
}

/** The columns of an OAuth provider insert: those the uniqueness, the order and the sealed secret need, and the record's text (D-401). */
export const oauthProviderInsertColumns =
  "id, organization_id, provider_id, name, client_id, auth_url, token_url, sealed_client_secret, uses_pkce, " +
  "code_challenge_method, provider_type, mcp_server_url, token_endpoint_auth_method, is_dynamic_client, created_us, updated_us, rendered";

/** The values of `oauthProviderInsertColumns` in their order; SQLite stores booleans as 0 and 1. */
export function oauthProviderInsertValues(record: OAuthProviderRecord, booleans: "native" | "integer"): unknown[] {
  const { provider: p } = record;
  const bit = (value: boolean) => (booleans === "native" ? value : value ? 1 : 0);
  return [
    p.id,
    p.organization_id,
    p.provider_id,
    p.name,
    p.client_id,
    p.auth_url,
    p.token_url,
    record.sealedClientSecret,
    bit(p.uses_pkce),
    p.code_challenge_method ?? null,
    p.provider_type ?? null,
    p.mcp_server_url ?? null,
    p.token_endpoint_auth_method ?? "client_secret_post",
    bit(p.is_dynamic_client ?? false),
    record.createdUs,
    record.updatedUs,
    JSON.stringify(p),
  ];
}

export function toRevisionRecord(row: Row, nowUs: number, readyUs: number): RevisionRecord {
  // The revision is deployed when its deployment's provisioning ends (D-53).
  const deployed = row.status === "QUEUED" && provisionedBy("AWAITING_DATABASE", readyUs, nowUs);
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

/** A new deployment as the insert stores it: provisioning, no active revision yet (D-53). */
export function newDeploymentRecord(d: NewDeployment, seq: number, createdUs: number): DeploymentRecord {
  return {
    deployment: { ...d.deployment, status: "AWAITING_DATABASE", active_revision_id: null },
    seq,
    secrets: d.secrets,
    createdUs,
    updatedUs: createdUs,
    readyUs: createdUs + d.readyAfterUs,
  };
}

/** What a create answers (D-401): the record and the text it stored, both as of nowUs (READY once provisioning has ended, D-53). */
export function createdDeployment(
  stored: DeploymentRecord,
  text: string,
  renderer: DeploymentRenderer,
  nowUs: number,
): CreatedDeployment {
  const { deployment, readyUs } = stored;
  const row = { text, status: deployment.status, readyUs, latestRevisionId: deployment.latest_revision_id };
  return { ...deploymentAsOf(stored, nowUs), text: renderer.joinedAsOf([row], nowUs).joined };
}

/**
 * The values of `deploymentInsertColumns`, in the order both adapters bind them: the columns the filters, the order
 * and the sealed secrets need, taken from the record, and its response text last (D-83, D-401).
 */
export function deploymentInsertValues(record: DeploymentRecord, text: string): unknown[] {
  const { deployment: d } = record;
  return [
    d.id,
    d.tenant_id,
    record.seq,
    d.name,
    d.name.toLowerCase(),
    d.source,
    d.status,
    JSON.stringify(d.source_config),
    JSON.stringify(d.source_revision_config),
    JSON.stringify(record.secrets),
    d.secret_references == null ? null : JSON.stringify(d.secret_references),
    d.image_version ?? null,
    d.source_config.listener_id ?? null,
    d.latest_revision_id,
    d.active_revision_id,
    record.createdUs,
    record.updatedUs,
    record.readyUs,
    text,
  ];
}

export const deploymentColumns =
  "id, tenant_id, seq, name, name_lower, source, status, source_config, source_revision_config, secrets, " +
  "secret_references, image_version, listener_id, latest_revision_id, active_revision_id, created_us, updated_us, ready_us";

/** The columns of a deployment insert: the record's and its stored response text. */
export const deploymentInsertColumns = `${deploymentColumns}, rendered`;

/** What a page of stored texts reads per row: the text and what decides whether provisioning has ended since it was stored. */
export const deploymentTextColumns = "rendered, status, ready_us, latest_revision_id";
