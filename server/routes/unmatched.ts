/** Unknown routes (404) and known paths with another method (405 with Allow), as problem details; the known paths come from the contract (D-20, D-21). */
import type { Context, Next } from "koa";
import { matchPath } from "../../contract/index.js";
import { HttpProblem } from "../errors/http-problem.js";

/** Runs after the router: anything still without a response is a 404 or a 405. `extra` lists the server's own paths outside the contract. */
export function unmatchedRoutes(extra: Record<string, string[]> = {}) {
  return async function answerUnmatched(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const match = matchPath(ctx.method, ctx.path);
    const allow = match.kind === "method-not-allowed" ? match.allow : extra[ctx.path];
    if (allow) {
      const allowHeader = allow.join(", ");
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        ctx.set("Allow", allowHeader);
        return;
      }
      throw new HttpProblem(
        "methodNotAllowed",
        `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowHeader}.`,
        undefined,
        { Allow: allowHeader },
      );
    }
    throw new HttpProblem("notFound", `No route ${ctx.method} ${ctx.path}.`);
  };
}
