/** Structured logs (Hardening): pino JSON lines, request ids via X-Request-Id, secrets redacted and never logged. */
import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import pino, { type DestinationStream, type Logger } from "pino";

/** Paths that could hold a secret if anything ever logged them; they are replaced, not printed. */
const redactedPaths = [
  'req.headers["x-api-key"]',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
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
 * access line holds only ids, method, path, status and a duration (nothing to redact), so it is
 * written straight to the logger's destination in pino's line format (D-86).
 */
export function requestLogging(logger: Logger) {
  const writeAccessLine = accessLineWriter(logger);
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
      writeAccessLine?.(
        fields,
        ctx.method,
        ctx.path,
        ctx.status,
        ctx.state.operationId as string | undefined,
        Math.round((performance.now() - started) * 10) / 10,
      );
    }
  };
}

/** What writes one access line, or undefined when info lines are off. */
type AccessLineWriter = (
  fields: RequestFields,
  method: string,
  path: string,
  status: number,
  operationId: string | undefined,
  ms: number,
) => void;

/**
 * The line pino would write for `logger.info({ ...fields, method, path, status, operationId, ms }, "request")`
 * (level, ISO time, the logger's bindings, the fields, msg), built as one template: pino's generic
 * serializer and redaction cost about as much as the framework's whole request.
 */
export function accessLineWriter(logger: Logger): AccessLineWriter | undefined {
  if (!logger.isLevelEnabled("info")) return undefined;
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]!;
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? "";
  const level = logger.levels.values.info;
  return (fields, method, path, status, operationId, ms) => {
    const who =
      fields.organizationId === undefined
        ? ""
        : `,"organizationId":${JSON.stringify(fields.organizationId)},"tenantId":${JSON.stringify(fields.tenantId)}`;
    const operation = operationId === undefined ? "" : `,"operationId":${JSON.stringify(operationId)}`;
    stream.write(
      `{"level":${level},"time":"${new Date().toISOString()}"${bindings},"requestId":${JSON.stringify(fields.requestId)}${who},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status}${operation},"ms":${ms},"msg":"request"}\n`,
    );
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
  let log = ctx.state.log as Logger | undefined;
  if (!log) {
    log = fallback.child({ ...fields });
    ctx.state.log = log;
  }
  return log;
}
