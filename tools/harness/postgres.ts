/** The PostgreSQL database the benchmark and the reliability runs use, and a schema of their own in it. */

/** The PostgreSQL URL of the run: TEST_DATABASE_URL or the local default. */
export function postgresBaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

/** A URL that selects `schema` as the search path of every connection. */
export function withSearchPath(url: string, schema: string): string {
  const separator = url.includes("?") ? "&" : "?";
  return `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** Drops a schema of a run and everything in it (the reference server creates its DATABASE_SCHEMA itself). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  // loaded here, so that a run on SQLite alone never loads the driver
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
