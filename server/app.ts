/** Koa app assembly (issue 3): request ids and logs, problem details, the six operations of the contract, health, 404/405. */
import Router from "@koa/router";
import Koa from "koa";
import type { Dependencies } from "./dependencies.js";
import { HttpProblem } from "./errors/http-problem.js";
import { problemMiddleware } from "./errors/problem-middleware.js";
import { registerHealth } from "./health.js";
import { requestLogging } from "./logging.js";
import { registerCreateDeployment } from "./routes/create-deployment.js";
import { registerCreateOAuthProvider } from "./routes/create-oauth-provider.js";
import { registerListCodehostRepositories } from "./routes/list-codehost-repositories.js";
import { registerListDeployments } from "./routes/list-deployments.js";
import { registerListManagedCodehostRepositories } from "./routes/list-managed-codehost-repositories.js";
import { registerListOAuthProviders } from "./routes/list-oauth-providers.js";
import { knownPaths, unmatchedRoutes } from "./routes/unmatched.js";
import type { OpenApiDocument } from "./validation/openapi-document.js";

export function createApp(deps: Dependencies, document: OpenApiDocument): Koa {
  const app = new Koa();
  // Koa's own error printing would bypass the structured logger.
  app.silent = true;
  app.use(requestLogging(deps.logger));
  app.use(problemMiddleware(deps.logger));
  app.use(async (ctx, next) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. Node's own check (requireHostHeader)
    // is off so that this answer is a problem detail like every other one [D-76].
    if (ctx.req.httpVersion === "1.1" && ctx.get("Host") === "") {
      throw new HttpProblem("malformedRequest", "An HTTP/1.1 request must carry a Host header.");
    }
    ctx.set("Cache-Control", "no-store");
    ctx.set("X-Content-Type-Options", "nosniff");
    await next();
  });
  app.use(unmatchedRoutes(knownPaths(document, { "/healthz": ["get"] })));

  // Paths are exactly those of the contract: case and trailing slashes count.
  const router = new Router({ strict: true, sensitive: true, trailing: false });
  registerCreateOAuthProvider(router, deps);
  registerListOAuthProviders(router, deps);
  registerListCodehostRepositories(router, deps);
  registerListManagedCodehostRepositories(router, deps);
  registerListDeployments(router, deps);
  registerCreateDeployment(router, deps);
  registerHealth(router);
  app.use(router.routes());
  return app;
}
