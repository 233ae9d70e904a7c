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

/** Gives each request an id (the caller's X-Request-Id when sane), echoes it, and logs one line per request. */
export function requestLogging(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get("x-request-id");
    const requestId = requestIdPattern.test(incoming) ? incoming : randomUUID();
    ctx.set("X-Request-Id", requestId);
    const log = logger.child({ requestId });
    ctx.state.log = log;
    const started = performance.now();
    try {
      await next();
    } finally {
      // Only method, path and outcome: query values and bodies may carry data the log must not hold.
      log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, operationId: ctx.state.operationId, ms: Math.round((performance.now() - started) * 10) / 10 },
        "request",
      );
    }
  };
}
