/** The one storage interface (Storage) with its adapters, SQLite, PostgreSQL and in memory (D-170), that pass the same contract tests. */
import type {
  ApiKeyRecord,
  DeploymentQuery,
  DeploymentRecord,
  NewDeployment,
  OAuthProviderRecord,
  OrganizationRecord,
  TenantRecord,
} from "../domain/records.js";

export interface Store {
  readonly kind: "sqlite" | "postgres" | "memory";
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the database answers a trivial query, "locked" when another process holds its write lock (D-110), "full" while writes find no disk space (D-280); rejects when it cannot be reached. */
  ping(): Promise<DatabaseState>;
  /** Whether no organization exists yet (demo seeding happens only then). */
  isEmpty(): Promise<boolean>;

  /** A value of the meta table, or sets it when absent; returns the stored value. */
  metaGetOrSet(key: string, value: string): Promise<string>;

  createOrganization(organization: OrganizationRecord): Promise<void>;
  createTenant(tenant: TenantRecord): Promise<void>;
  getTenant(id: string): Promise<TenantRecord | undefined>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;

  /**
   * Throws UniqueViolation when the organization already has the provider_id, LimitReached when it already
   * has `maxPerOrganization` providers (checked and inserted atomically, D-112).
   */
  insertOAuthProvider(provider: OAuthProviderRecord, maxPerOrganization: number): Promise<void>;
  /** Oldest first (D-08). */
  listOAuthProviders(organizationId: string): Promise<OAuthProviderRecord[]>;

  /**
   * One transaction: the deployment, its first revision and its tracing project, with a dense
   * per-tenant sequence number and a created_at strictly later than the tenant's previous one.
   * Throws UniqueViolation (nothing stored) when the name is taken in the tenant.
   */
  createDeployment(deployment: NewDeployment, nowUs: number): Promise<CreatedDeployment>;
  /** A page newest first (D-08) with the filters of D-39 to D-45, as the stored JSON texts of its deployments as of nowUs (D-83). */
  listDeploymentTexts(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<PageTexts>;
  /**
   * Re-seals, in one transaction, every value sealed before D-118 (format `v1.`): `reseal` gets the value and
   * what it belongs to and returns the value bound to it. Returns how many were re-sealed.
   */
  resealUnbound(reseal: (sealed: string, owner: SealOwner) => string): Promise<number>;
  /** Stores READY for every deployment whose provisioning ended by nowUs; returns how many. */
  promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number>;
}

/** What a sealed value belongs to (D-118). */
export type SealOwner =
  | { kind: "provider"; organizationId: string; providerId: string }
  | { kind: "deploymentSecret"; organizationId: string; tenantId: string; deploymentId: string; name: string };

/** The sealed values of a deployment's secrets column. */
type StoredSecrets = Array<{ name: string; sealedValue: string }>;

/** A deployment's secrets column with each value written before D-118 re-sealed; undefined when none was. */
export function resealedSecrets(
  secretsJson: string,
  owner: { organizationId: string; tenantId: string; deploymentId: string },
  reseal: (sealed: string, owner: SealOwner) => string,
): string | undefined {
  const secrets = JSON.parse(secretsJson) as StoredSecrets;
  let changed = false;
  const resealed = secrets.map((secret) => {
    if (!secret.sealedValue.startsWith("v1.")) return secret;
    changed = true;
    return {
      ...secret,
      sealedValue: reseal(secret.sealedValue, { kind: "deploymentSecret", ...owner, name: secret.name }),
    };
  });
  return changed ? JSON.stringify(resealed) : undefined;
}

/** A created deployment (D-401): its record and the answer's text as stored, both as of the create's time (D-53). */
export interface CreatedDeployment extends DeploymentRecord {
  /** The answer's text. */
  text: string;
}

/** What a ping learnt: the database answers reads and writes, or reads only while another process holds its write lock (D-110). */
/** "locked": another process holds the SQLite write lock (D-110); "full": a SQLite write found no disk space and none as large has committed since (D-280, D-413). */
export type DatabaseState = "ok" | "locked" | "full";

/** A page of deployments as JSON text: the texts joined with commas (the inside of a JSON array), and how many there are. */
export interface DeploymentTexts {
  joined: string;
  count: number;
}

/**
 * A page holding a deployment whose text is longer than `inlineTextBytes` (D-350): its texts in slices of about
 * `sliceBytes`, each slice's texts joined with commas, read from the database only as they are iterated.
 */
export interface SlicedDeploymentTexts {
  count: number;
  slices: AsyncIterable<string>;
}

/** What a store answers for a page: its texts at once, or in slices when it is heavy (D-350). */
export type PageTexts = DeploymentTexts | SlicedDeploymentTexts;
