/** Renders every failure as RFC 9457 application/problem+json (D-16); a 5xx never carries internals. */
import type { Context, Next } from "koa";
import type { Logger } from "pino";
import { requestLog } from "../logging.js";
import { isDatabaseUnavailable } from "./database-unavailable.js";
import { HttpProblem } from "./http-problem.js";

/** Writes a problem to the response. */
function sendProblem(ctx: Context, problem: HttpProblem): void {
  ctx.status = problem.status;
  for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
  ctx.type = "application/problem+json";
  ctx.body = JSON.stringify(problem.toProblem());
}

/** Catches everything thrown below it; unknown errors are logged and answered with a bare 500. */
export function problemMiddleware(logger: Logger) {
  return async function renderProblems(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpProblem) {
        sendProblem(ctx, error);
        return;
      }
      const log = requestLog(ctx, logger);
      if (isDatabaseUnavailable(error)) {
        log.warn({ err: errorSummary(error) }, "database unavailable");
        sendProblem(
          ctx,
          new HttpProblem(
            "serviceUnavailable",
            "The service cannot reach its database right now; retry after the time in Retry-After.",
            undefined,
            { "Retry-After": "2" },
          ),
        );
        return;
      }
      // Only the error's class and message go to the log, never request data.
      log.error({ err: errorSummary(error) }, "unhandled error");
      sendProblem(ctx, new HttpProblem("internal", "The server failed to process the request; try again later."));
    }
  };
}

/** A loggable summary of an error without its payload. */
export function errorSummary(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: typeof error, message: String(error) };
}
