/** Whether an error means the database cannot be reached for now (D-81: 503 with Retry-After), as opposed to a bug (500). */

/** Node's socket error codes of a connection that could not be made or was lost. */
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** PostgreSQL SQLSTATE classes and codes of an unavailable server: 08 connection exception, 57P01-57P03 shutdown or startup, 53300 too many connections. */
const postgresStates = /^(08...|57P0[123]|53300)$/;
/** SQLite's codes of a database another connection holds locked beyond busy_timeout, or of a disk without space or refusing a write (D-280). */
const sqliteCodes = /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/;
/** The messages of node-postgres when the connection ends or a connect times out. */
const postgresMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (connectionCodes.has(code) || postgresStates.test(code) || sqliteCodes.test(code)))
    return true;
  if (postgresMessages.test(error.message)) return true;
  // pg wraps a failed connect in an AggregateError (one error per address tried).
  return error instanceof AggregateError && error.errors.some(isDatabaseUnavailable);
}
