/** The routing step's misses: unknown routes (404) and known paths with another method (405 with Allow, 204 to OPTIONS), the known paths from the contract (D-20, D-21). */
import { matchPath } from "../../contract/index.js";
import { HttpProblem } from "../errors/http-problem.js";
import { commonHeaders } from "./common-headers.js";
import type { PipelineRequest } from "./exchange.js";

/** The answer to a request no operation took; `extra` lists the server's own paths outside the contract with their methods. Throws the 404 or 405. */
export function unmatched(request: PipelineRequest, extra: Readonly<Record<string, readonly string[]>>) {
  const match = matchPath(request.method, request.path);
  const allow = match.kind === "method-not-allowed" ? match.allow : extra[request.path];
  if (!allow) throw new HttpProblem("notFound", `No route ${request.method} ${request.path}.`);
  const allowHeader = allow.join(", ");
  if (request.method === "OPTIONS")
    return { status: 204, headers: { ...commonHeaders, Allow: allowHeader }, body: undefined };
  throw new HttpProblem(
    "methodNotAllowed",
    `${request.method} is not allowed on ${request.path}; allowed: ${allowHeader}.`,
    undefined,
    { Allow: allowHeader },
  );
}
