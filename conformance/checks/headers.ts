/** Checks of response headers: the media type of JSON answers (interface spec: "Bodies are JSON") and of problem answers (D-16). */
import { ensure, expect2xx } from "../assert.js";
import type { Check } from "../check.js";
import { createDeployment, createProvider, paths } from "../helpers.js";
import type { Exchange } from "../http.js";

const tags = ["headers"];

/** The media type of an answer without its parameters (`application/json; charset=utf-8` → `application/json`). */
function mediaType(exchange: Exchange): string | undefined {
  return exchange.response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
}

/** Fails unless the answer is labelled with this media type and its body parses as JSON. */
function expectMediaType(exchange: Exchange, want: string, what: string): void {
  const got = mediaType(exchange);
  ensure(got === want, `${what}: Content-Type is ${got ?? "absent"}, expected ${want}`, exchange);
  ensure(exchange.json !== undefined, `${what}: the body labelled ${want} is not JSON`, exchange);
}

export const headerChecks: Check[] = [
  {
    id: "HDR-001",
    level: "MUST",
    tags: [
      ...tags,
      "listOAuthProviders",
      "listDeployments",
      "listCodehostRepositories",
      "listManagedCodehostRepositories",
    ],
    statement: "The success answer of every list operation is labelled Content-Type application/json",
    specRef: 'interface-spec: introduction ("Bodies are JSON"); 2. List OAuth providers ("a JSON array")',
    needs: [],
    async run(ctx) {
      const lists: { what: string; path: string; operation: Parameters<typeof ctx.send>[0]["operation"] }[] = [
        { what: "list OAuth providers", path: paths.providers, operation: "listOAuthProviders" },
        { what: "list deployments", path: paths.deployments, operation: "listDeployments" },
      ];
      if (ctx.config.integrationId)
        lists.push({
          what: "list repositories",
          path: paths.repos(ctx.config.integrationId),
          operation: "listCodehostRepositories",
        });
      if (ctx.config.managedIntegrationId)
        lists.push({
          what: "list managed repositories",
          path: paths.managedRepos(ctx.config.managedIntegrationId),
          operation: "listManagedCodehostRepositories",
        });
      for (const list of lists) {
        const exchange = await ctx.send({ method: "GET", path: list.path, operation: list.operation });
        expect2xx(exchange, list.what);
        expectMediaType(exchange, "application/json", list.what);
      }
    },
  },
  {
    id: "HDR-002",
    level: "MUST",
    tags: [...tags, "createOAuthProvider", "createDeployment"],
    statement: "The success answer of every create operation is labelled Content-Type application/json",
    specRef:
      'interface-spec: introduction ("Bodies are JSON"); 6. Create a deployment ("Response: one Deployment record")',
    needs: ["write"],
    async run(ctx) {
      const provider = await createProvider(ctx);
      expectMediaType(provider.exchange, "application/json", "create OAuth provider");
      const deployment = await createDeployment(ctx);
      expectMediaType(deployment.exchange, "application/json", "create deployment");
    },
  },
  {
    id: "HDR-003",
    level: "SHOULD",
    tags: [...tags, "errors", "listDeployments"],
    statement: "Error answers (401, 404, 405, 422) are labelled Content-Type application/problem+json",
    specRef: "D-16 (RFC 9457 application/problem+json)",
    needs: ["server"],
    async run(ctx) {
      const errors: { what: string; send: Parameters<typeof ctx.send>[0] }[] = [
        { what: "list deployments without a key", send: { method: "GET", path: paths.deployments, auth: "none" } },
        { what: "an unknown path", send: { method: "GET", path: `${paths.deployments}-unknown-path` } },
        { what: "a method the path does not allow", send: { method: "DELETE", path: paths.deployments } },
        {
          what: "list deployments with limit=0",
          send: { method: "GET", path: paths.deployments, query: { limit: 0 } },
        },
      ];
      for (const error of errors) {
        const exchange = await ctx.send(error.send);
        const status = exchange.response.status;
        ensure(status >= 400 && status < 500, `${error.what}: expected a 4xx answer, got ${status}`, exchange);
        expectMediaType(exchange, "application/problem+json", `${error.what} (${status})`);
      }
    },
  },
];
