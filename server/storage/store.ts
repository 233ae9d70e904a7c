/** The one storage interface (Storage) with its adapters, SQLite, PostgreSQL and in memory (D-170), that pass the same contract tests. */
import type {
  ApiKeyRecord,
  DeploymentQuery,
  DeploymentRecord,
  NewDeployment,
  OAuthProviderRecord,
  OrganizationRecord,
  RevisionRecord,
  TenantRecord,
  TracingProjectRecord,
} from "./records.js";

/** A unique constraint was hit: the record already exists. */
export class UniqueViolation extends Error {
  override name = "UniqueViolation";
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint}`);
  }
}

export interface Store {
  readonly kind: "sqlite" | "postgres" | "memory";
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Whether no organization exists yet (demo seeding happens only then). */
  isEmpty(): Promise<boolean>;

  /** A value of the meta table, or sets it when absent; returns the stored value. */
  metaGetOrSet(key: string, value: string): Promise<string>;

  createOrganization(organization: OrganizationRecord): Promise<void>;
  createTenant(tenant: TenantRecord): Promise<void>;
  getTenant(id: string): Promise<TenantRecord | undefined>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;

  /** Throws UniqueViolation when the organization already has the provider_id. */
  insertOAuthProvider(provider: OAuthProviderRecord): Promise<void>;
  /** Oldest first (D-08). */
  listOAuthProviders(organizationId: string): Promise<OAuthProviderRecord[]>;

  /**
   * One transaction: the deployment, its first revision and its tracing project, with a dense
   * per-tenant sequence number and a created_at strictly later than the tenant's previous one.
   * Throws UniqueViolation (nothing stored) when the name is taken in the tenant.
   */
  createDeployment(deployment: NewDeployment, nowUs: number): Promise<DeploymentRecord>;
  /** Newest first (D-08) with the filters of D-39 to D-45, as of nowUs. */
  listDeployments(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<DeploymentRecord[]>;
  /** The same page as listDeployments, as the stored JSON texts of its deployments as of nowUs (D-83). */
  listDeploymentTexts(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<DeploymentTexts>;
  listRevisions(tenantId: string, deploymentId: string): Promise<RevisionRecord[]>;
  getTracingProject(tenantId: string, name: string): Promise<TracingProjectRecord | undefined>;
  /** Stores READY for every deployment whose provisioning ended by nowUs; returns how many. */
  promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number>;
}

/** A page of deployments as JSON text: the texts joined with commas (the inside of a JSON array), and how many there are. */
export interface DeploymentTexts {
  joined: string;
  count: number;
}
