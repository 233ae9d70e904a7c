/** Chooses the Store adapter from configuration (DATABASE_URL selects PostgreSQL, else SQLite at SQLITE_PATH). */
import type { Config } from "../config.js";
import { PostgresStore } from "./postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { Store } from "./store.js";

/** Opens the configured database and applies its migrations. */
export async function openStore(
  config: Pick<Config, "databaseUrl" | "databaseSchema" | "sqlitePath" | "sqliteSynchronous">,
): Promise<Store> {
  const store: Store = config.databaseUrl
    ? new PostgresStore({
        connectionString: config.databaseUrl,
        ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
      })
    : new SqliteStore({ path: config.sqlitePath, synchronous: config.sqliteSynchronous });
  await store.migrate();
  return store;
}
