/** `npm start -- --fresh` (D-330): the embedded SQLite database removed before start, so that demo mode seeds the demo data into an empty one again. */
import { rmSync } from "node:fs";
import { type Config, ConfigError } from "./config.js";

/** Removes the SQLite file and its WAL companions; refuses a PostgreSQL database, which the kit never drops. Returns the removed path. */
export function removeEmbeddedDatabase(config: Pick<Config, "databaseUrl" | "sqlitePath">): string {
  if (config.databaseUrl !== undefined)
    throw new ConfigError("--fresh starts over on the embedded SQLite database only; DATABASE_URL is set");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${config.sqlitePath}${suffix}`, { force: true });
  return config.sqlitePath;
}
