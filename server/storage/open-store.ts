/** Chooses the Store adapter from configuration (DATABASE_URL selects PostgreSQL, else SQLite at SQLITE_PATH). */
import type { Config } from "../config.js";
import type { Clock } from "../domain/clock.js";
import type { DeploymentRenderer } from "../domain/deployment-renderer.js";
import type { Store } from "./store.js";

/**
 * Opens the configured database and applies its migrations. Only the chosen adapter is loaded: the
 * PostgreSQL driver costs about 25 ms of start-up (D-89) that a SQLite server need not pay. The renderer
 * renders the deployment texts the store keeps (the presenters' deploymentRenderer); the clock is the server's one clock.
 */
export async function openStore(
  config: Pick<Config, "databaseUrl" | "databaseSchema" | "sqlitePath" | "sqliteSynchronous">,
  renderer: DeploymentRenderer,
  clock?: Clock,
): Promise<Store> {
  let store: Store;
  if (config.databaseUrl) {
    const { PostgresStore } = await import("./postgres-store.js");
    store = new PostgresStore({
      connectionString: config.databaseUrl,
      renderer,
      clock,
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    });
  } else {
    const { SqliteStore } = await import("./sqlite-store.js");
    store = new SqliteStore({ path: config.sqlitePath, synchronous: config.sqliteSynchronous, renderer, clock });
  }
  await store.migrate();
  return store;
}
