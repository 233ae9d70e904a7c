/** Database migrations, applied in order at start-up; each is written once and compiled to both dialects' SQL. */
import type { Dialect } from "./initial-schema.js";

/** A numbered migration and how to get its SQL for a dialect. */
export interface Migration {
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
];
