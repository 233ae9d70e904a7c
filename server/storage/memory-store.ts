/**
 * In-memory adapter of the Store (D-170): plain TypeScript over Maps, no native module and no Node-only API,
 * so the stateful mock runs inside MSW in Node and in a browser. It keeps the same stored texts (D-83),
 * the same filters, order and pages (D-08, D-39 to D-45, D-84) and the same as-of reads of provisioning
 * (D-53) as the SQLite and PostgreSQL adapters, and passes the same store contract tests.
 */

import type { DeploymentRenderer } from "../domain/deployment-renderer.js";
import {
  type ApiKeyRecord,
  type DeploymentQuery,
  type DeploymentRecord,
  deploymentAsOf,
  type NewDeployment,
  type OAuthProviderRecord,
  type OrganizationRecord,
  provisionedBy,
  type RevisionRecord,
  type TenantRecord,
  type TracingProjectRecord,
} from "../domain/records.js";
import { LimitReached, UniqueViolation } from "../domain/store-errors.js";
import { createdDeployment, newDeploymentRecord } from "./row-mapping.js";
import type { CreatedDeployment, DatabaseState, DeploymentTexts, SealOwner, Store } from "./store.js";

/** A create refused because the store holds its cap of deployments (D-170). */
export class StoreFull extends Error {
  override name = "StoreFull";
  constructor(readonly maxDeployments: number) {
    super(`the store holds its cap of ${maxDeployments} deployments`);
  }
}

/** A deployment as stored: its record in its stored state (never derived from the time) and its response text. */
interface StoredDeployment {
  record: DeploymentRecord;
  text: string;
}

/** A tenant's deployments in sequence order (oldest first) and its counters, as tenant_counters holds them. */
interface TenantDeployments {
  bySeq: StoredDeployment[];
  /** Names in lower case: unique in any letter case (D-119). */
  names: Set<string>;
  lastCreatedUs: number;
}

interface MemoryStoreOptions {
  /** Renders the deployment texts the store keeps (the presenters' deploymentRenderer). */
  renderer: DeploymentRenderer;
  /** Deployments kept at most (all tenants together); a create beyond it throws StoreFull. */
  maxDeployments?: number;
}

/** Whether a stored deployment passes every filter of the query at nowUs (combined with AND). */
function matches(record: DeploymentRecord, query: DeploymentQuery, nowUs: number): boolean {
  if (query.matchNothing) return false;
  const { deployment: d } = record;
  // A case-insensitive substring test, '%' and '_' plain characters (D-84), on the same lower-cased name SQLite stores.
  if (query.nameContains !== undefined && !d.name.toLowerCase().includes(query.nameContains.toLowerCase()))
    return false;
  if (query.statuses !== undefined && !query.statuses.includes(deploymentAsOf(record, nowUs).deployment.status))
    return false;
  if (query.deploymentIds !== undefined && !query.deploymentIds.includes(d.id)) return false;
  if (query.remoteReconciled !== undefined && (d.source_config.listener_id != null) !== query.remoteReconciled)
    return false;
  if (query.imageVersion !== undefined && (d.image_version ?? null) !== query.imageVersion) return false;
  return true;
}

export class MemoryStore implements Store {
  readonly kind = "memory" as const;
  private readonly maxDeployments: number;
  private readonly meta = new Map<string, string>();
  private readonly organizations = new Map<string, OrganizationRecord>();
  private readonly tenants = new Map<string, TenantRecord>();
  private readonly apiKeys = new Map<string, ApiKeyRecord>();
  private readonly apiKeysByHash = new Map<string, ApiKeyRecord>();
  /** Providers by organization, in insertion order; keyed by provider_id for its uniqueness. */
  private readonly providers = new Map<string, Map<string, OAuthProviderRecord>>();
  private readonly deployments = new Map<string, TenantDeployments>();
  // The three below are read by the test inspector (server/testing/store-inspector.ts) as well.
  readonly deploymentsById = new Map<string, StoredDeployment>();
  readonly revisions = new Map<string, RevisionRecord>();
  /** Tracing projects by `<tenant id> <name>`. */
  readonly tracingProjects = new Map<string, TracingProjectRecord>();
  private deploymentCount = 0;
  private readonly renderer: DeploymentRenderer;

  constructor(options: MemoryStoreOptions) {
    this.renderer = options.renderer;
    this.maxDeployments = options.maxDeployments ?? Number.POSITIVE_INFINITY;
  }

  /** Nothing to migrate: the Maps are the schema. */
  async migrate(): Promise<void> {}

  async close(): Promise<void> {}

  async ping(): Promise<DatabaseState> {
    return "ok";
  }

  async isEmpty(): Promise<boolean> {
    return this.organizations.size === 0;
  }

  async metaGetOrSet(key: string, value: string): Promise<string> {
    if (!this.meta.has(key)) this.meta.set(key, value);
    return this.meta.get(key) as string;
  }

  async createOrganization(organization: OrganizationRecord): Promise<void> {
    if (this.organizations.has(organization.id)) throw new UniqueViolation("organizations.id");
    this.organizations.set(organization.id, { ...organization });
  }

  async createTenant(tenant: TenantRecord): Promise<void> {
    if (this.tenants.has(tenant.id)) throw new UniqueViolation("tenants.id");
    if (!this.organizations.has(tenant.organizationId)) throw new Error("FOREIGN KEY constraint failed: tenants");
    this.tenants.set(tenant.id, { ...tenant });
    this.tenantDeployments(tenant.id);
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    const tenant = this.tenants.get(id);
    return tenant && { ...tenant };
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    if (this.apiKeys.has(key.id)) throw new UniqueViolation("api_keys.id");
    if (this.apiKeysByHash.has(key.keyHash)) throw new UniqueViolation("api_keys.key_hash");
    const stored = { ...key, tenantIds: [...new Set([key.defaultTenantId, ...key.tenantIds])] };
    this.apiKeys.set(key.id, stored);
    this.apiKeysByHash.set(key.keyHash, stored);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const key = this.apiKeysByHash.get(keyHash);
    return key && { ...key, tenantIds: [...key.tenantIds] };
  }

  async insertOAuthProvider(provider: OAuthProviderRecord, maxPerOrganization: number): Promise<void> {
    const { organization_id: organizationId, provider_id: providerId } = provider.provider;
    let organization = this.providers.get(organizationId);
    if (!organization) {
      organization = new Map();
      this.providers.set(organizationId, organization);
    }
    if (organization.size >= maxPerOrganization) throw new LimitReached(maxPerOrganization);
    if (organization.has(providerId))
      throw new UniqueViolation("oauth_providers.organization_id, oauth_providers.provider_id");
    organization.set(providerId, { ...provider });
  }

  async listOAuthProviders(organizationId: string): Promise<OAuthProviderRecord[]> {
    const providers = [...(this.providers.get(organizationId)?.values() ?? [])];
    // Oldest first, the id breaking ties (D-08).
    return providers
      .sort(
        (a, b) =>
          a.createdUs - b.createdUs || (a.provider.id < b.provider.id ? -1 : a.provider.id > b.provider.id ? 1 : 0),
      )
      .map((provider) => ({ ...provider }));
  }

  async createDeployment(d: NewDeployment, nowUs: number): Promise<CreatedDeployment> {
    const { deployment } = d;
    const tenant = this.tenantDeployments(deployment.tenant_id);
    if (tenant.names.has(deployment.name.toLowerCase()))
      throw new UniqueViolation("deployments.tenant_id, deployments.name");
    if (this.deploymentsById.has(deployment.id)) throw new UniqueViolation("deployments.id");
    if (this.deploymentCount >= this.maxDeployments) throw new StoreFull(this.maxDeployments);
    // A dense sequence and a created_at strictly later than the tenant's previous one, whatever the clock does.
    const createdUs = Math.max(tenant.lastCreatedUs + 1, nowUs);
    const record = newDeploymentRecord(d, tenant.bySeq.length + 1, createdUs);
    const entry = { record, text: this.renderer.text(record) };
    tenant.bySeq.push(entry);
    tenant.names.add(deployment.name.toLowerCase());
    tenant.lastCreatedUs = createdUs;
    this.deploymentsById.set(deployment.id, entry);
    this.deploymentCount++;
    this.addRevisionAndProject(record, d.tracingProjectId);
    return createdDeployment(record, entry.text, this.renderer, nowUs);
  }

  /** The first revision and the tracing project a deployment is stored with. */
  private addRevisionAndProject(record: DeploymentRecord, tracingProjectId: string): void {
    const { deployment: d } = record;
    if (d.latest_revision_id)
      this.revisions.set(d.latest_revision_id, {
        id: d.latest_revision_id,
        deploymentId: d.id,
        tenantId: d.tenant_id,
        status: d.status === "AWAITING_DATABASE" ? "QUEUED" : "DEPLOYED",
        sourceRevisionConfig: d.source_revision_config as Record<string, unknown>,
        createdUs: record.createdUs,
      });
    this.tracingProjects.set(`${d.tenant_id} ${d.name}`, {
      id: tracingProjectId,
      tenantId: d.tenant_id,
      name: d.name,
      deploymentId: d.id,
      createdUs: record.createdUs,
    });
  }

  async listDeploymentTexts(tenantId: string, query: DeploymentQuery, nowUs: number): Promise<DeploymentTexts> {
    return this.renderer.joinedAsOf(
      this.page(tenantId, query, nowUs).map(({ record, text }) => ({
        text,
        status: record.deployment.status,
        readyUs: record.readyUs,
        latestRevisionId: record.deployment.latest_revision_id,
      })),
      nowUs,
    );
  }

  async resealUnbound(reseal: (sealed: string, owner: SealOwner) => string): Promise<number> {
    let count = 0;
    for (const [organizationId, providers] of this.providers)
      for (const provider of providers.values()) {
        if (!provider.sealedClientSecret?.startsWith("v1.")) continue;
        provider.sealedClientSecret = reseal(provider.sealedClientSecret, {
          kind: "provider",
          organizationId,
          providerId: provider.provider.id,
        });
        count += 1;
      }
    for (const { record } of this.deploymentsById.values()) {
      if (!record.secrets.some((secret) => secret.sealedValue.startsWith("v1."))) continue;
      const { tenant_id: tenantId, id: deploymentId } = record.deployment;
      const organizationId = this.tenants.get(tenantId)?.organizationId ?? "";
      record.secrets = record.secrets.map((secret) =>
        secret.sealedValue.startsWith("v1.")
          ? {
              ...secret,
              sealedValue: reseal(secret.sealedValue, {
                kind: "deploymentSecret",
                organizationId,
                tenantId,
                deploymentId,
                name: secret.name,
              }),
            }
          : secret,
      );
      count += 1;
    }
    return count;
  }

  async promoteReadyDeployments(nowUs: number, batchSize: number): Promise<number> {
    let promoted = 0;
    for (const entry of this.deploymentsById.values()) {
      if (promoted >= batchSize) break;
      const { record } = entry;
      if (!provisionedBy(record.deployment.status, record.readyUs, nowUs)) continue;
      // The stored text is rewritten with the state: the READY head of D-83.
      const latest = record.deployment.latest_revision_id;
      entry.text = this.renderer.readyText(entry.text, latest, record.readyUs);
      entry.record = deploymentAsOf(record, nowUs);
      const revision = latest ? this.revisions.get(latest) : undefined;
      if (revision?.status === "QUEUED") revision.status = "DEPLOYED";
      promoted++;
    }
    return promoted;
  }

  /** A tenant's deployments oldest first as of nowUs (a sandbox snapshot, D-320). */
  tenantDeploymentRecords(tenantId: string, nowUs: number): DeploymentRecord[] {
    return (this.deployments.get(tenantId)?.bySeq ?? []).map(({ record }) => deploymentAsOf(record, nowUs));
  }

  /** Replaces a tenant's deployments by these records, oldest first and in any status (a sandbox seed or restore, D-320). */
  replaceTenantDeployments(tenantId: string, records: Omit<DeploymentRecord, "seq">[]): void {
    const tenant = this.tenantDeployments(tenantId);
    if (this.deploymentCount - tenant.bySeq.length + records.length > this.maxDeployments)
      throw new StoreFull(this.maxDeployments);
    // all or nothing (D-395): every id and name is judged before the tenant is emptied, so a refused
    // replacement leaves the tenant as it was
    const ids = new Set<string>();
    const names = new Set<string>();
    for (const { deployment } of records) {
      const holder = this.deploymentsById.get(deployment.id)?.record.deployment.tenant_id;
      if ((holder !== undefined && holder !== tenantId) || ids.has(deployment.id))
        throw new UniqueViolation("deployments.id", deployment.id);
      const folded = deployment.name.toLowerCase();
      if (names.has(folded)) throw new UniqueViolation("deployments.tenant_id, deployments.name", deployment.name);
      ids.add(deployment.id);
      names.add(folded);
    }
    for (const { record } of tenant.bySeq) {
      const { deployment: d } = record;
      this.deploymentsById.delete(d.id);
      if (d.latest_revision_id) this.revisions.delete(d.latest_revision_id);
      this.tracingProjects.delete(`${tenantId} ${d.name}`);
    }
    this.deploymentCount -= tenant.bySeq.length;
    const fresh: TenantDeployments = { bySeq: [], names: new Set(), lastCreatedUs: 0 };
    this.deployments.set(tenantId, fresh);
    for (const given of records) {
      const { deployment } = given;
      const record: DeploymentRecord = {
        ...given,
        deployment: { ...deployment, tenant_id: tenantId },
        seq: fresh.bySeq.length + 1,
      };
      const entry = { record, text: this.renderer.text(record) };
      fresh.bySeq.push(entry);
      fresh.names.add(deployment.name.toLowerCase());
      fresh.lastCreatedUs = Math.max(fresh.lastCreatedUs, record.createdUs);
      this.deploymentsById.set(deployment.id, entry);
      this.deploymentCount++;
      this.addRevisionAndProject(record, globalThis.crypto.randomUUID());
    }
  }

  /** Replaces an organization's OAuth providers (a sandbox seed or restore, D-320). */
  replaceOAuthProviders(organizationId: string, providers: OAuthProviderRecord[]): void {
    this.providers.set(
      organizationId,
      new Map(providers.map((provider) => [provider.provider.provider_id, { ...provider }])),
    );
  }

  /** How many deployments the store holds (all tenants). */
  size(): number {
    return this.deploymentCount;
  }

  /** A page newest first (D-08): the matches walked from the newest, stopping once the page is full (the test inspector's too). */
  page(tenantId: string, query: DeploymentQuery, nowUs: number): StoredDeployment[] {
    const all = this.deployments.get(tenantId)?.bySeq ?? [];
    const page: StoredDeployment[] = [];
    let skipped = 0;
    for (let i = all.length - 1; i >= 0 && page.length < query.limit; i--) {
      const entry = all[i]!;
      if (!matches(entry.record, query, nowUs)) continue;
      if (skipped < query.offset) skipped++;
      else page.push(entry);
    }
    return page;
  }

  private tenantDeployments(tenantId: string): TenantDeployments {
    let tenant = this.deployments.get(tenantId);
    if (!tenant) {
      tenant = { bySeq: [], names: new Set(), lastCreatedUs: 0 };
      this.deployments.set(tenantId, tenant);
    }
    return tenant;
  }
}
