/**
 * The schema of the migrations that both dialects share, written once with Kysely's schema builder and
 * compiled to each dialect's SQL (SQLite, PostgreSQL) without a connection. Where the dialects differ
 * (64-bit integers, booleans, an auto-incremented key) the column type is chosen per dialect.
 */
import {
  type Compilable,
  type CreateTableBuilder,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from "kysely";

export type Dialect = "sqlite" | "postgres";

/** A Kysely that only compiles: nothing is ever sent through its driver. */
function compiler(dialect: Dialect): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect:
      dialect === "sqlite"
        ? {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new SqliteIntrospector(db),
            createQueryCompiler: () => new SqliteQueryCompiler(),
          }
        : {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new PostgresIntrospector(db),
            createQueryCompiler: () => new PostgresQueryCompiler(),
          },
  });
}

/** The first migration's SQL for a dialect: every statement, separated by `;`. */
export function initialSchema(dialect: Dialect): string {
  const db = compiler(dialect);
  // Timestamps and counters are microseconds and sequence numbers: 64-bit on PostgreSQL (SQLite's INTEGER already is).
  const int64 = dialect === "postgres" ? "bigint" : "integer";
  const flag = dialect === "postgres" ? "boolean" : "integer";
  const table = (name: string) => db.schema.createTable(name);
  const statements: Compilable[] = [
    table("meta")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull()),
    table("organizations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_us", int64, (c) => c.notNull()),
    table("tenants")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_us", int64, (c) => c.notNull()),
    // D-08: one row per tenant hands out dense sequence numbers, so an unfiltered page is an index seek.
    table("tenant_counters")
      .addColumn("tenant_id", "text", (c) => c.primaryKey().references("tenants.id"))
      .addColumn("deployment_seq", int64, (c) => c.notNull().defaultTo(0))
      .addColumn("last_created_us", int64, (c) => c.notNull().defaultTo(0)),
    table("api_keys")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
      .addColumn("key_hash", "text", (c) => c.notNull().unique())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("default_tenant_id", "text", (c) => c.notNull().references("tenants.id"))
      .addColumn("created_us", int64, (c) => c.notNull()),
    table("api_key_tenants")
      .addColumn("api_key_id", "text", (c) => c.notNull().references("api_keys.id"))
      .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
      .addPrimaryKeyConstraint("api_key_tenants_pkey", ["api_key_id", "tenant_id"]),
    withTimestamps(
      table("oauth_providers")
        .addColumn("seq", dialect === "postgres" ? "bigserial" : "integer", (c) =>
          dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
        .addColumn("provider_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("auth_url", "text", (c) => c.notNull())
        .addColumn("token_url", "text", (c) => c.notNull())
        .addColumn("sealed_client_secret", "text")
        .addColumn("uses_pkce", flag, (c) => c.notNull())
        .addColumn("code_challenge_method", "text")
        .addColumn("provider_type", "text")
        .addColumn("mcp_server_url", "text")
        .addColumn("token_endpoint_auth_method", "text", (c) => c.notNull())
        .addColumn("is_dynamic_client", flag, (c) => c.notNull()),
      int64,
    ).addUniqueConstraint("oauth_providers_organization_provider_id", ["organization_id", "provider_id"]),
    withTimestamps(
      table("deployments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
        .addColumn("seq", int64, (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("name_lower", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("source_config", "text", (c) => c.notNull())
        .addColumn("source_revision_config", "text", (c) => c.notNull())
        .addColumn("secrets", "text", (c) => c.notNull())
        .addColumn("secret_references", "text")
        .addColumn("image_version", "text")
        .addColumn("listener_id", "text")
        .addColumn("latest_revision_id", "text")
        .addColumn("active_revision_id", "text"),
      int64,
    )
      .addColumn("ready_us", int64, (c) => c.notNull())
      .addUniqueConstraint("deployments_tenant_name", ["tenant_id", "name"])
      .addUniqueConstraint("deployments_tenant_seq", ["tenant_id", "seq"]),
    db.schema
      .createIndex("deployments_awaiting")
      .on("deployments")
      .column("ready_us")
      .where(sql.ref("status"), "=", "AWAITING_DATABASE"),
    table("revisions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("deployment_id", "text", (c) => c.notNull().references("deployments.id"))
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("source_revision_config", "text", (c) => c.notNull())
      .addColumn("created_us", int64, (c) => c.notNull()),
    db.schema.createIndex("revisions_deployment").on("revisions").columns(["deployment_id", "created_us"]),
    table("tracing_projects")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("deployment_id", "text", (c) => c.notNull().references("deployments.id"))
      .addColumn("created_us", int64, (c) => c.notNull())
      .addUniqueConstraint("tracing_projects_tenant_name", ["tenant_id", "name"]),
  ];
  return statements.map((statement) => `${inlineParameters(statement)};`).join("\n");
}

/**
 * The second migration: each deployment's response representation stored ready to send (D-83), and a
 * partial index that finds the rows written before it (empty once the store has rendered them).
 */
export function responseTextsSchema(dialect: Dialect): string {
  const db = compiler(dialect);
  return [
    db.schema.alterTable("deployments").addColumn("rendered", "text"),
    db.schema
      .createIndex("deployments_unrendered")
      .on("deployments")
      .column("id")
      .where(sql.ref("rendered"), "is", null),
  ]
    .map((statement) => `${statement.compile().sql};`)
    .join("\n");
}

/** created_us and updated_us, in microseconds since the epoch. */
function withTimestamps<T extends string, C extends string>(
  builder: CreateTableBuilder<T, C>,
  int64: string,
): CreateTableBuilder<T, C> {
  return builder
    .addColumn("created_us", int64 as "bigint", (c) => c.notNull())
    .addColumn("updated_us", int64 as "bigint", (c) => c.notNull());
}

/** DDL cannot take bound parameters: a partial index's value is written into the statement. */
function inlineParameters(statement: Compilable): string {
  const { sql: text, parameters } = statement.compile();
  return text.replace(/\$\d+|\?/g, (placeholder) => {
    const index = placeholder === "?" ? 0 : Number(placeholder.slice(1)) - 1;
    const value = parameters[index];
    if (typeof value !== "string" || !/^[A-Z_]+$/.test(value))
      throw new Error(`unexpected DDL parameter ${String(value)}`);
    return `'${value}'`;
  });
}
