/** Database migrations, applied in order at start-up; what both dialects share is written once and compiled to each one's SQL. */
import type { Dialect } from "./initial-schema.js";

/** A numbered migration and how to get its SQL for a dialect. */
interface Migration {
  version: number;
  name: string;
  /** The statements for one dialect; asked only when the migration is still to be applied. */
  sql(dialect: Dialect): Promise<string>;
}

// Timestamps are microseconds since the epoch: created_at is made strictly increasing per tenant,
// which keeps "created_at desc, id desc" identical to the sequence order (D-08).
export const migrations: Migration[] = [
  {
    version: 1,
    name: "initial schema",
    // Loaded on demand: Kysely (about 70 ms to import) is needed only to create a new database.
    sql: async (dialect) => (await import("./initial-schema.js")).initialSchema(dialect),
  },
  {
    version: 2,
    name: "deployment response texts",
    // The response representation stored ready to send (D-83); rows written before this migration
    // are rendered by the store right after the migrations run.
    sql: async (dialect) => (await import("./initial-schema.js")).responseTextsSchema(dialect),
  },
  {
    version: 3,
    name: "name_contains index",
    // Trigram indexes for the substring filter (D-84). The FTS5 table keeps its own copy of the
    // name with the deployment id and tenant: the rowid of a table with a TEXT key may change on
    // VACUUM. Its own rowid grows in creation order, which within a tenant is the sequence order,
    // so a tenant's matches come newest first from the index itself. The store adds the names of a
    // group commit once per batch, outside the savepoint of each create: FTS5 writes a segment at
    // every savepoint, which an insert trigger would do per create.
    // The two dialects' indexes have nothing in common: each is its own SQL.
    sql: async (dialect) => (dialect === "sqlite" ? nameIndexSqlite : nameIndexPostgres),
  },
  {
    version: 4,
    name: "deployment names unique in any letter case",
    // D-119: the same SQL for both dialects. A database that already holds two names of one tenant differing
    // only in letter case cannot take it: the migration fails on the unique constraint until one is renamed.
    sql: async () => "CREATE UNIQUE INDEX deployments_tenant_name_lower ON deployments (tenant_id, name_lower);",
  },
  {
    version: 5,
    name: "status and image_version filter indexes",
    // D-311: a status or image_version filter that matches few rows walks only its matches, newest first, instead
    // of the whole tenant; the same SQL for both dialects.
    sql: async () => `
      CREATE INDEX deployments_tenant_status_seq ON deployments (tenant_id, status, seq);
      CREATE INDEX deployments_tenant_image_seq ON deployments (tenant_id, image_version, seq);
    `,
  },
  {
    version: 6,
    name: "OAuth provider response texts",
    // D-401: the provider's record as the contract's JSON, so a field the contract adds is kept with no column of
    // its own; rows written before keep NULL and are read from their columns.
    sql: async () => "ALTER TABLE oauth_providers ADD COLUMN rendered TEXT;",
  },
];

const nameIndexSqlite = `
      CREATE VIRTUAL TABLE deployments_name_index USING fts5(name_lower, deployment_id UNINDEXED, tenant_id UNINDEXED, tokenize = 'trigram');
      INSERT INTO deployments_name_index (name_lower, deployment_id, tenant_id) SELECT name_lower, id, tenant_id FROM deployments ORDER BY tenant_id, seq;
      CREATE TRIGGER deployments_name_index_delete AFTER DELETE ON deployments BEGIN
        DELETE FROM deployments_name_index WHERE deployment_id = old.id;
      END;
      CREATE TRIGGER deployments_name_index_update AFTER UPDATE OF name_lower ON deployments BEGIN
        UPDATE deployments_name_index SET name_lower = new.name_lower WHERE deployment_id = old.id;
      END;
    `;

// pg_trgm lives in one schema of the database (public unless it was installed elsewhere before), the one
// object outside DATABASE_SCHEMA (D-117): an extension exists once per database;
// the operator class is named through that schema, as the search path may hold only ours.
const nameIndexPostgres = `
      CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        EXECUTE format('CREATE INDEX deployments_name_trgm ON deployments USING gin (name_lower %I.gin_trgm_ops)', trgm_schema);
      END $$;
    `;
