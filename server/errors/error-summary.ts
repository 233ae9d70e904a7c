/** A loggable summary of an error without its payload: only its class, message and stack go to the log, never request data. */
export function errorSummary(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: typeof error, message: String(error) };
}
