/** Database migrations (issue 3: Storage), one list per dialect with the same tables, applied in order at start-up. */

/** A numbered migration with its SQL for each dialect. */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

// Timestamps are microseconds since the epoch: created_at is made strictly increasing per tenant,
// which keeps "created_at desc, id desc" identical to the sequence order (profile choice 6).
export const migrations: Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sqlite: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_us INTEGER NOT NULL);
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL, created_us INTEGER NOT NULL);
      CREATE TABLE tenant_counters (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
        deployment_seq INTEGER NOT NULL DEFAULT 0, last_created_us INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id),
        key_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL,
        default_tenant_id TEXT NOT NULL REFERENCES tenants(id), created_us INTEGER NOT NULL);
      CREATE TABLE api_key_tenants (
        api_key_id TEXT NOT NULL REFERENCES api_keys(id), tenant_id TEXT NOT NULL REFERENCES tenants(id),
        PRIMARY KEY (api_key_id, tenant_id));
      CREATE TABLE oauth_providers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations(id), provider_id TEXT NOT NULL,
        name TEXT NOT NULL, client_id TEXT NOT NULL, auth_url TEXT NOT NULL, token_url TEXT NOT NULL,
        sealed_client_secret TEXT, uses_pkce INTEGER NOT NULL, code_challenge_method TEXT,
        provider_type TEXT, mcp_server_url TEXT, token_endpoint_auth_method TEXT NOT NULL,
        is_dynamic_client INTEGER NOT NULL, created_us INTEGER NOT NULL, updated_us INTEGER NOT NULL,
        CONSTRAINT oauth_providers_organization_provider_id UNIQUE (organization_id, provider_id));
      CREATE TABLE deployments (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), seq INTEGER NOT NULL,
        name TEXT NOT NULL, name_lower TEXT NOT NULL, source TEXT NOT NULL, status TEXT NOT NULL,
        source_config TEXT NOT NULL, source_revision_config TEXT NOT NULL, secrets TEXT NOT NULL,
        secret_references TEXT, image_version TEXT, listener_id TEXT,
        latest_revision_id TEXT, active_revision_id TEXT,
        created_us INTEGER NOT NULL, updated_us INTEGER NOT NULL, ready_us INTEGER NOT NULL,
        CONSTRAINT deployments_tenant_name UNIQUE (tenant_id, name),
        CONSTRAINT deployments_tenant_seq UNIQUE (tenant_id, seq));
      CREATE INDEX deployments_awaiting ON deployments (ready_us) WHERE status = 'AWAITING_DATABASE';
      CREATE TABLE revisions (
        id TEXT PRIMARY KEY, deployment_id TEXT NOT NULL REFERENCES deployments(id), tenant_id TEXT NOT NULL,
        status TEXT NOT NULL, source_revision_config TEXT NOT NULL, created_us INTEGER NOT NULL);
      CREATE INDEX revisions_deployment ON revisions (deployment_id, created_us);
      CREATE TABLE tracing_projects (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), name TEXT NOT NULL,
        deployment_id TEXT NOT NULL REFERENCES deployments(id), created_us INTEGER NOT NULL,
        CONSTRAINT tracing_projects_tenant_name UNIQUE (tenant_id, name));
    `,
    postgres: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_us BIGINT NOT NULL);
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL, created_us BIGINT NOT NULL);
      CREATE TABLE tenant_counters (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
        deployment_seq BIGINT NOT NULL DEFAULT 0, last_created_us BIGINT NOT NULL DEFAULT 0);
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id),
        key_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL,
        default_tenant_id TEXT NOT NULL REFERENCES tenants(id), created_us BIGINT NOT NULL);
      CREATE TABLE api_key_tenants (
        api_key_id TEXT NOT NULL REFERENCES api_keys(id), tenant_id TEXT NOT NULL REFERENCES tenants(id),
        PRIMARY KEY (api_key_id, tenant_id));
      CREATE TABLE oauth_providers (
        seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations(id), provider_id TEXT NOT NULL,
        name TEXT NOT NULL, client_id TEXT NOT NULL, auth_url TEXT NOT NULL, token_url TEXT NOT NULL,
        sealed_client_secret TEXT, uses_pkce BOOLEAN NOT NULL, code_challenge_method TEXT,
        provider_type TEXT, mcp_server_url TEXT, token_endpoint_auth_method TEXT NOT NULL,
        is_dynamic_client BOOLEAN NOT NULL, created_us BIGINT NOT NULL, updated_us BIGINT NOT NULL,
        CONSTRAINT oauth_providers_organization_provider_id UNIQUE (organization_id, provider_id));
      CREATE TABLE deployments (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), seq BIGINT NOT NULL,
        name TEXT NOT NULL, name_lower TEXT NOT NULL, source TEXT NOT NULL, status TEXT NOT NULL,
        source_config TEXT NOT NULL, source_revision_config TEXT NOT NULL, secrets TEXT NOT NULL,
        secret_references TEXT, image_version TEXT, listener_id TEXT,
        latest_revision_id TEXT, active_revision_id TEXT,
        created_us BIGINT NOT NULL, updated_us BIGINT NOT NULL, ready_us BIGINT NOT NULL,
        CONSTRAINT deployments_tenant_name UNIQUE (tenant_id, name),
        CONSTRAINT deployments_tenant_seq UNIQUE (tenant_id, seq));
      CREATE INDEX deployments_awaiting ON deployments (ready_us) WHERE status = 'AWAITING_DATABASE';
      CREATE TABLE revisions (
        id TEXT PRIMARY KEY, deployment_id TEXT NOT NULL REFERENCES deployments(id), tenant_id TEXT NOT NULL,
        status TEXT NOT NULL, source_revision_config TEXT NOT NULL, created_us BIGINT NOT NULL);
      CREATE INDEX revisions_deployment ON revisions (deployment_id, created_us);
      CREATE TABLE tracing_projects (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), name TEXT NOT NULL,
        deployment_id TEXT NOT NULL REFERENCES deployments(id), created_us BIGINT NOT NULL,
        CONSTRAINT tracing_projects_tenant_name UNIQUE (tenant_id, name));
    `,
  },
  {
    version: 2,
    name: "deployment response texts",
    // The response representation stored ready to send (D-82); rows written before this migration
    // are rendered by the store right after the migrations run.
    // The partial index finds those rows without a scan at every start; it is empty afterwards.
    sqlite: `
      ALTER TABLE deployments ADD COLUMN rendered TEXT;
      CREATE INDEX deployments_unrendered ON deployments (id) WHERE rendered IS NULL;
    `,
    postgres: `
      ALTER TABLE deployments ADD COLUMN rendered TEXT;
      CREATE INDEX deployments_unrendered ON deployments (id) WHERE rendered IS NULL;
    `,
  },
  {
    version: 3,
    name: "name_contains index",
    // Trigram indexes for the substring filter (D-83). The FTS5 table keeps its own copy of the
    // name with the deployment id and tenant: the rowid of a table with a TEXT key may change on
    // VACUUM. Its own rowid grows in creation order, which within a tenant is the sequence order,
    // so a tenant's matches come newest first from the index itself. The store adds the names of a
    // group commit once per batch, outside the savepoint of each create: FTS5 writes a segment at
    // every savepoint, which an insert trigger would do per create.
    sqlite: `
      CREATE VIRTUAL TABLE deployments_name_index USING fts5(name_lower, deployment_id UNINDEXED, tenant_id UNINDEXED, tokenize = 'trigram');
      INSERT INTO deployments_name_index (name_lower, deployment_id, tenant_id) SELECT name_lower, id, tenant_id FROM deployments ORDER BY tenant_id, seq;
      CREATE TRIGGER deployments_name_index_delete AFTER DELETE ON deployments BEGIN
        DELETE FROM deployments_name_index WHERE deployment_id = old.id;
      END;
      CREATE TRIGGER deployments_name_index_update AFTER UPDATE OF name_lower ON deployments BEGIN
        UPDATE deployments_name_index SET name_lower = new.name_lower WHERE deployment_id = old.id;
      END;
    `,
    // pg_trgm lives in one schema of the database (public unless it was installed elsewhere before);
    // the operator class is named through that schema, as the search path may hold only ours.
    postgres: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        EXECUTE format('CREATE INDEX deployments_name_trgm ON deployments USING gin (name_lower %I.gin_trgm_ops)', trgm_schema);
      END $$;
    `,
  },
];
