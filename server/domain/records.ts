/** Stored records of the service (interface spec: Resources; D-13 to D-15, D-53, D-54, D-55): what the Store reads and writes. */

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

/** An OAuth provider of an organization; the client secret only sealed (AES-256-GCM). */
export interface OAuthProviderRecord {
  id: string;
  organizationId: string;
  providerId: string;
  name: string;
  clientId: string;
  authUrl: string;
  tokenUrl: string;
  sealedClientSecret: string | null;
  usesPkce: boolean;
  codeChallengeMethod: string | null;
  providerType: string | null;
  mcpServerUrl: string | null;
  tokenEndpointAuthMethod: string;
  isDynamicClient: boolean;
  createdUs: number;
  updatedUs: number;
}

/** A secret with its value sealed. */
export interface SealedSecret {
  name: string;
  sealedValue: string;
}

/** What a create stores; ids, sequence and timestamps are assigned by the Store in the transaction. */
export interface NewDeployment {
  id: string;
  tenantId: string;
  name: string;
  source: string;
  sourceConfig: Record<string, unknown>;
  sourceRevisionConfig: Record<string, unknown>;
  secrets: SealedSecret[];
  secretReferences: unknown[] | null;
  imageVersion: string | null;
  listenerId: string | null;
  revisionId: string;
  tracingProjectId: string;
  /** Provisioning takes this long after creation (D-53). */
  readyAfterUs: number;
}

/** A deployment as read, with status and active revision as of the read (D-53). */
export interface DeploymentRecord {
  id: string;
  tenantId: string;
  seq: number;
  name: string;
  source: string;
  status: string;
  sourceConfig: Record<string, unknown>;
  sourceRevisionConfig: Record<string, unknown>;
  secrets: SealedSecret[];
  secretReferences: unknown[] | null;
  imageVersion: string | null;
  listenerId: string | null;
  latestRevisionId: string | null;
  activeRevisionId: string | null;
  createdUs: number;
  updatedUs: number;
  readyUs: number;
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
