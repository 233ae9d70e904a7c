/** Koa app assembly: request ids and logs, CORS (D-132), problem details, the operations of the contract from the route table, health, 404/405. */
import Router from "@koa/router";
import Koa from "koa";
import { corsMiddleware, corsPolicyFromEnv } from "./cors.js";
import type { Dependencies } from "./dependencies.js";
import { maxTargetBytes } from "./errors/client-errors.js";
import { HttpProblem } from "./errors/http-problem.js";
import { problemMiddleware } from "./errors/problem-middleware.js";
import { registerHealth } from "./health.js";
import { requestLogging } from "./logging.js";
import { routeTable } from "./routes/index.js";
import { registerOperations } from "./routes/route-table.js";
import { unmatchedRoutes } from "./routes/unmatched.js";
import { createServices } from "./services/index.js";

export function createApp(deps: Dependencies): Koa {
  const app = new Koa();
  // Koa's own error printing would bypass the structured logger.
  app.silent = true;
  app.use(requestLogging(deps.logger));
  app.use(corsMiddleware(corsPolicyFromEnv(process.env, deps.config.demo)));
  app.use(problemMiddleware(deps.logger));
  app.use(async (ctx, next) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. Node's own check (requireHostHeader)
    // is off so that this answer is a problem detail like every other one [D-76].
    if (ctx.req.httpVersion === "1.1" && ctx.get("Host") === "") {
      throw new HttpProblem("malformedRequest", "An HTTP/1.1 request must carry a Host header.");
    }
    // RFC 9110 §15.5.15: a target longer than the server takes is 414 (D-115); a longer one that
    // overflows Node's 16 KiB head is answered 414 by answerClientErrors.
    if (Buffer.byteLength(ctx.req.url ?? "") > maxTargetBytes) {
      throw new HttpProblem("uriTooLong", `The request target is longer than ${maxTargetBytes} bytes.`);
    }
    ctx.set("Cache-Control", "no-store");
    ctx.set("X-Content-Type-Options", "nosniff");
    await next();
  });
  app.use(unmatchedRoutes({ "/healthz": ["GET", "HEAD"] }));

  // Paths are exactly those of the contract: case and trailing slashes count.
  const router = new Router({ strict: true, sensitive: true, trailing: false });
  registerOperations(router, routeTable, deps, createServices(deps));
  registerHealth(router, deps.store);
  app.use(router.routes());
  return app;
}
