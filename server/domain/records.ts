/** Stored records of the service (interface spec: Resources; D-13 to D-15, D-53, D-54, D-55): what the Store reads and writes. */
import type { Deployment, OAuthProvider, Secret } from "../../contract/schemas.js";

export interface OrganizationRecord {
  id: string;
  name: string;
}

export interface TenantRecord {
  id: string;
  organizationId: string;
  name: string;
}

/** An API key as stored: only its hash, the organization and the tenants it reaches (D-13 to D-15). */
export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  keyHash: string;
  label: string;
  defaultTenantId: string;
  tenantIds: string[];
}

/** The contract's OAuthProvider as a record keeps it (D-401): every field of the answer but the two timestamps. */
export type OAuthProviderFields = Omit<OAuthProvider, "created_at" | "updated_at">;

/** An OAuth provider of an organization (D-401): the contract's record, the client secret only sealed (AES-256-GCM), its times. */
export interface OAuthProviderRecord {
  provider: OAuthProviderFields;
  sealedClientSecret: string | null;
  createdUs: number;
  updatedUs: number;
}

/** A secret with its value sealed. */
export interface SealedSecret {
  name: string;
  sealedValue: string;
}

/**
 * The contract's Deployment as a record keeps it (D-401): every field of the answer but the two timestamps, which
 * the record holds in microseconds. A field the contract adds to Deployment is kept with no edit here.
 */
export type DeploymentFields = Omit<Deployment, "created_at" | "updated_at">;

/** What a response shows instead of a secret value (D-55). */
const maskedValue = "********";

/** Secrets as every answer shows them (D-55): names as given, values masked; the one masking of every store and layer. */
export function maskSecrets(secrets: ReadonlyArray<{ name: string }>): Secret[] {
  return secrets.map((secret) => ({ name: secret.name, value: maskedValue }));
}

/** What a create stores; sequence and timestamps are assigned by the Store in the transaction. */
export interface NewDeployment {
  /** The answer as created, secrets masked (D-55), without its state: the store starts it (AWAITING_DATABASE, no active revision, D-53). */
  deployment: Omit<DeploymentFields, "status" | "active_revision_id">;
  /** The secrets' values sealed (what `deployment.secrets` shows masked). */
  secrets: SealedSecret[];
  tracingProjectId: string;
  /** Provisioning takes this long after creation (D-53). */
  readyAfterUs: number;
}

/** A deployment as stored: the contract's record, its sealed secrets, sequence number and times (D-401). */
export interface DeploymentRecord {
  deployment: DeploymentFields;
  seq: number;
  secrets: SealedSecret[];
  createdUs: number;
  updatedUs: number;
  /** When provisioning ends (D-53). */
  readyUs: number;
}

/** Whether a deployment stored as `status` is READY at nowUs because its provisioning has ended (D-53): the rule every store and layer applies. */
export function provisionedBy(status: unknown, readyUs: number, nowUs: number): boolean {
  return status === "AWAITING_DATABASE" && readyUs <= nowUs;
}

/** A deployment as read at nowUs (D-53): once provisioning has ended, READY with its latest revision active, updated at the ready time. */
export function deploymentAsOf(record: DeploymentRecord, nowUs: number): DeploymentRecord {
  const { deployment, readyUs } = record;
  if (!provisionedBy(deployment.status, readyUs, nowUs)) return record;
  return {
    ...record,
    deployment: { ...deployment, status: "READY", active_revision_id: deployment.latest_revision_id },
    updatedUs: readyUs,
  };
}

/** A revision of a deployment (not exposed by this interface, stored and tested). */
export interface RevisionRecord {
  id: string;
  deploymentId: string;
  tenantId: string;
  status: string;
  sourceRevisionConfig: Record<string, unknown>;
  createdUs: number;
}

/** The tracing project created with each deployment, same name, unique per tenant. */
export interface TracingProjectRecord {
  id: string;
  tenantId: string;
  name: string;
  deploymentId: string;
  createdUs: number;
}

/** Filters of list deployments (D-39 to D-45), already interpreted; combined with AND. */
export interface DeploymentQuery {
  limit: number;
  offset: number;
  nameContains?: string;
  statuses?: string[];
  deploymentIds?: string[];
  remoteReconciled?: boolean;
  imageVersion?: string;
  /** A filter that no deployment can match (e.g. non-empty tag_value_ids). */
  matchNothing?: boolean;
}

/** Whether the query has any filter; without one the page is an index seek on the sequence number. */
export function isUnfiltered(query: DeploymentQuery): boolean {
  return (
    !query.matchNothing &&
    query.nameContains === undefined &&
    query.statuses === undefined &&
    query.deploymentIds === undefined &&
    query.remoteReconciled === undefined &&
    query.imageVersion === undefined
  );
}
