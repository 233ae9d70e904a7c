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
