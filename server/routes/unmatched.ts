/** Unknown routes (404) and known paths with another method (405 with Allow), as problem details (profile choice 4); the known paths come from the contract [D-20, D-21]. */
import type { Context, Next } from "koa";
import { HttpProblem } from "../errors/http-problem.js";
import type { OpenApiDocument } from "../validation/openapi-document.js";

interface KnownPath {
  pattern: RegExp;
  allow: string;
}

/** Path templates of the document as regular expressions, with their methods (plus HEAD for GET). */
export function knownPaths(document: OpenApiDocument, extra: Record<string, string[]> = {}): KnownPath[] {
  const entries = Object.entries(document.paths).map(([path, item]) => [path, Object.keys(item).filter((k) => k !== "parameters")] as const);
  return [...entries, ...Object.entries(extra)].map(([path, methods]) => {
    const upper = methods.map((m) => m.toUpperCase());
    if (upper.includes("GET")) upper.push("HEAD");
    const source = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]+");
    return { pattern: new RegExp(`^${source}$`), allow: [...new Set(upper)].join(", ") };
  });
}

/** Runs after the router: anything still without a response is a 404 or a 405. */
export function unmatchedRoutes(paths: KnownPath[]) {
  return async function answerUnmatched(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const known = paths.find((p) => p.pattern.test(ctx.path));
    if (known) {
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        ctx.set("Allow", known.allow);
        return;
      }
      throw new HttpProblem("methodNotAllowed", `${ctx.method} is not allowed on ${ctx.path}; allowed: ${known.allow}.`, undefined, { Allow: known.allow });
    }
    throw new HttpProblem("notFound", `No route ${ctx.method} ${ctx.path}.`);
  };
}
