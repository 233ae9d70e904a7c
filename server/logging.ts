/** Structured logs (issue 3: Hardening): pino JSON lines, request ids via X-Request-Id, secrets redacted and never logged. */
import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import pino, { type DestinationStream, type Logger } from "pino";

/** Paths that could hold a secret if anything ever logged them; they are replaced, not printed. */
export const redactedPaths = [
  "req.headers[\"x-api-key\"]",
  "headers[\"x-api-key\"]",
  "*.headers[\"x-api-key\"]",
  "apiKey",
  "*.apiKey",
  "client_secret",
  "*.client_secret",
  "*.*.client_secret",
  "secrets[*].value",
  "*.secrets[*].value",
  "body",
  "*.body",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "deployment-service" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactedPaths, censor: "[redacted]" },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Accepted incoming request ids: short and printable, so they cannot forge log lines. */
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** What every line about one request carries: its id and, once known, who called. */
interface RequestFields {
  requestId: string;
  organizationId?: string;
  tenantId?: string;
}

/**
 * Gives each request an id (the caller's X-Request-Id when sane), echoes it, and logs one line per
 * request. The per-request logger is made only when something else is logged about the request; the
 * access line holds only ids, method, path, status and a duration, so its logger skips redaction.
 */
export function requestLogging(logger: Logger) {
  const access = logger.child({}, { redact: { paths: [], censor: "[redacted]" } });
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get("x-request-id");
    const requestId = incoming !== "" && requestIdPattern.test(incoming) ? incoming : randomUUID();
    ctx.set("X-Request-Id", requestId);
    const fields: RequestFields = { requestId };
    ctx.state.logFields = fields;
    const started = performance.now();
    try {
      await next();
    } finally {
      // Only method, path and outcome: query values and bodies may carry data the log must not hold.
      access.info(
        { ...fields, method: ctx.method, path: ctx.path, status: ctx.status, operationId: ctx.state.operationId, ms: Math.round((performance.now() - started) * 10) / 10 },
        "request",
      );
    }
  };
}

/** Adds who called to the lines about this request. */
export function bindRequest(ctx: Context, bindings: { organizationId: string; tenantId: string }): void {
  const fields = ctx.state.logFields as RequestFields | undefined;
  if (fields) Object.assign(fields, bindings);
}

/** The logger for lines about this request (with its id and caller), or `fallback` outside one; made on first use. */
export function requestLog(ctx: Context, fallback: Logger): Logger {
  const fields = ctx.state.logFields as RequestFields | undefined;
  if (!fields) return fallback;
  return ((ctx.state.log as Logger | undefined) ??= fallback.child({ ...fields }));
}
