/**
 * Records judged against the full contract (D-221): the profile's constraints beyond the interface spec (lengths, counts,
 * bounds, typed maps, required inner fields), each breach citing the decision that adds it. Every other check judges
 * answers by the interface level only, so only these checks fail on a record that breaks the profile alone, and they judge
 * only the records they create themselves: the verdict is the same whatever else the target holds.
 */
import { answerProblems } from "../../contract/index.js";
import { ensure, expect2xx, isObject, jsonObject } from "../check-kit/assert.js";
import { firstRepository, type Json, paths } from "../check-kit/helpers.js";
import { deploymentBody, providerBody, type Source, sourcesFor } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

const tags = ["schema", "full-contract"];

/** What the full contract says of a 2xx answer, with only the records this check created kept in a listing. */
function fullContractProblems(operationId: string, exchange: Exchange, body: unknown): string[] {
  return answerProblems(
    operationId,
    { status: exchange.response.status, contentType: exchange.response.headers["content-type"], body },
    { anySuccess: true, level: "full" },
  );
}

/** Fails with every breach found, each line naming the answer and, where a decision adds the constraint, its D-NN. */
function judge(found: { what: string; problems: string[]; exchange: Exchange }[]): void {
  const breached = found.filter(({ problems }) => problems.length > 0);
  ensure(
    breached.length === 0,
    `the full contract is broken: ${breached.map(({ what, problems }) => `${what}: ${problems.join("; ")}`).join(" | ")}`,
    breached[0]?.exchange,
  );
}

/** A profile-valid body of a source that carries the fields the profile bounds: a secret, and self-hosted a resource spec. */
async function richBody(ctx: CheckContext, source: Source): Promise<Json> {
  const repository = source === "codehost" ? await firstRepository(ctx) : undefined;
  const body = deploymentBody(ctx.name("schema"), source, repository);
  body.secrets = [{ name: "SCHEMA_TOKEN", value: "schema-value" }];
  if (source === "external_container") {
    body.source_config = {
      ...(body.source_config as Json),
      resource_spec: {
        min_scale: 1,
        max_scale: 2,
        cpu: 0.5,
        memory_mb: 512,
        labels: { team: "conformance" },
        sidecars: [{ name: "log-shipper", image: "registry.example.com/conformance/log:1.0.0" }],
      },
    };
    body.secret_references = [{ name: "DATABASE_URL", secret_name: "conformance-db", secret_key: "url" }];
  }
  return body;
}

export const schemaChecks: Check[] = [
  {
    id: "SCHEMA-001",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "listDeployments"],
    statement:
      "Deployment records the check creates (each source of the hosting kind, with a secret; self-hosted with a resource spec and a secret reference) match the full contract in the create answer and in the list, each breach citing its decision",
    specRef: "D-220 (the full contract: D-01, D-31, D-32, D-65, D-69, D-70, D-133 beyond the interface spec)",
    needs: ["write", "state"],
    async run(ctx) {
      const sources = sourcesFor[ctx.config.hosting].filter(
        (source) => source !== "codehost" || ctx.config.integrationId,
      );
      const found: { what: string; problems: string[]; exchange: Exchange }[] = [];
      const ids: string[] = [];
      for (const source of sources) {
        const body = await richBody(ctx, source);
        const exchange = await ctx.send({
          method: "POST",
          path: paths.deployments,
          json: body,
          operation: "createDeployment",
          noValidate: true,
        });
        expect2xx(exchange, `create ${source} deployment`);
        const record = jsonObject(exchange, `create ${source} deployment`);
        ctx.created({ kind: "deployment", id: String(record.id), name: String(body.name), key: "main" });
        ids.push(String(record.id));
        found.push({
          what: `create ${source}`,
          problems: fullContractProblems("createDeployment", exchange, record),
          exchange,
        });
      }
      const listed = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { deployment_ids: ids.join(","), limit: 100 },
        operation: "listDeployments",
        noValidate: true,
      });
      expect2xx(listed, "list the created deployments by deployment_ids");
      const page = jsonObject(listed, "list deployments");
      const own = Array.isArray(page.resources)
        ? page.resources.filter((record) => isObject(record) && ids.includes(String(record.id)))
        : page.resources;
      found.push({
        what: "list",
        problems: fullContractProblems("listDeployments", listed, { ...page, resources: own }),
        exchange: listed,
      });
      judge(found);
    },
  },
  {
    id: "SCHEMA-002",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "listOAuthProviders"],
    statement:
      "An OAuth provider record the check creates matches the full contract in the create answer and in the list, each breach citing its decision",
    specRef: "D-220 (the full contract beyond the interface spec)",
    needs: ["write", "state"],
    async run(ctx) {
      const body: Json = {
        ...providerBody(ctx.name("schema")),
        client_secret: "schema-secret",
        uses_pkce: true,
        code_challenge_method: "S256",
      };
      const created = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: body,
        operation: "createOAuthProvider",
        noValidate: true,
      });
      expect2xx(created, "create OAuth provider");
      const record = jsonObject(created, "create OAuth provider");
      ctx.created({ kind: "oauth_provider", id: String(record.id), name: String(body.provider_id), key: "main" });
      const listed = await ctx.send({
        method: "GET",
        path: paths.providers,
        operation: "listOAuthProviders",
        noValidate: true,
      });
      expect2xx(listed, "list OAuth providers");
      const own = Array.isArray(listed.json)
        ? listed.json.filter((candidate) => isObject(candidate) && candidate.id === record.id)
        : listed.json;
      judge([
        { what: "create", problems: fullContractProblems("createOAuthProvider", created, record), exchange: created },
        { what: "list", problems: fullContractProblems("listOAuthProviders", listed, own), exchange: listed },
      ]);
    },
  },
];
