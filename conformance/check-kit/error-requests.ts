/** Requests every target answers with a 4xx: no key, an unknown path, a method the path does not allow, limit=0. */
import type { SendRequest } from "../runner/check.js";
import { paths } from "./helpers.js";

/** A query parameter no operation declares (D-310): a list answers as without it or refuses it, never with a 5xx. */
export const undeclaredParameter = { cf_unknown_parameter: "1" };

export const errorRequests: { what: string; request: SendRequest }[] = [
  { what: "list deployments without a key", request: { method: "GET", path: paths.deployments, auth: "none" } },
  { what: "an unknown path", request: { method: "GET", path: `${paths.deployments}-unknown-path` } },
  { what: "a method the path does not allow", request: { method: "DELETE", path: paths.deployments } },
  {
    what: "list deployments with limit=0",
    request: { method: "GET", path: paths.deployments, query: { limit: 0 } },
  },
];
