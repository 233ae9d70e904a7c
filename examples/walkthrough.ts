/**
 * A client team's first program, on the generated typed client: list OAuth
 * providers, create one, list a code-host integration's repositories, create a deployment from a
 * repository record (interface spec, operation 6 rule 4), and walk every page of deployments by the
 * returned offset (D-09). It runs unchanged against the mock and the reference server:
 *
 *   npm run example -- --base-url http://127.0.0.1:4010
 *
 * The key and the integration default to Acme's demo ones (D-77). Environment fallbacks: BASE_URL,
 * API_KEY, TENANT_ID, INTEGRATION_ID.
 */
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { demo } from "../contract/index.js";
import {
  type CodehostRepository,
  createServiceClient,
  type Deployment,
  type DeploymentCreateFor,
  type OAuthProvider,
  ProblemError,
  unwrap,
} from "../generated/client.js";

/** What the walkthrough needs to reach a service. */
export interface WalkthroughOptions {
  baseUrl: string;
  apiKey: string;
  /** Tenant to act on; without it the key's default tenant. */
  tenantId?: string;
  /** The code-host integration whose repositories are listed. */
  integrationId: string;
  /** Deployments per page; small by default so the walk shows more than one page. */
  pageSize?: number;
  /** Where progress lines go. */
  log?: (line: string) => void;
}

/** What the walkthrough saw, for a caller (or a test) to check. */
export interface WalkthroughResult {
  providersListed: number;
  provider: Pick<OAuthProvider, "id" | "provider_id">;
  repositories: number;
  repository: Pick<CodehostRepository, "owner" | "name" | "url" | "default_branch">;
  deployment: Pick<Deployment, "id" | "name" | "status" | "source">;
  /** The deployment request sent, to compare with the record the service returned. */
  deploymentRequest: DeploymentCreateFor<"codehost">;
  pages: number;
  deploymentsWalked: number;
  /** Ids seen on more than one page: a pagination bug of the service. */
  duplicateIds: string[];
  /** Whether the new deployment was among the walked ones (a stateful service lists it; the mock does not). */
  createdDeploymentListed: boolean;
}

/** A per-run suffix so reruns against a stateful server do not collide (409) on names. */
function runSuffix(): string {
  return randomBytes(4).toString("hex");
}

/** Runs the five steps and returns what it saw; rejects with a ProblemError when the service refuses. */
export async function runWalkthrough(options: WalkthroughOptions): Promise<WalkthroughResult> {
  const log = options.log ?? (() => {});
  const pageSize = options.pageSize ?? 2;
  const client = createServiceClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.tenantId ? { tenantId: options.tenantId } : {}),
  });
  const suffix = runSuffix();

  // 1. OAuth providers of the organization.
  const providers = await unwrap(client.GET("/v2/auth/providers"));
  log(
    `1. ${providers.length} OAuth provider(s): ${providers.map((provider) => provider.provider_id).join(", ") || "none"}`,
  );

  // 2. A new provider; provider_id must be unique in the organization, hence the suffix.
  const provider = await unwrap(
    client.POST("/v2/auth/providers", {
      body: {
        provider_id: `walkthrough-${suffix}`,
        name: `Walkthrough ${suffix}`,
        client_id: `walkthrough-client-${suffix}`,
        client_secret: "walkthrough-secret-value",
        auth_url: "https://auth.example.com/oauth/authorize",
        token_url: "https://auth.example.com/oauth/token",
        uses_pkce: true,
        code_challenge_method: "S256",
      },
    }),
  );
  log(`2. created OAuth provider ${provider.provider_id} (id ${provider.id})`);

  // 3. Repositories reachable through the code-host integration.
  const repositories = await unwrap(
    client.GET("/v1/integrations/codehost/{integration_id}/repos", {
      params: { path: { integration_id: options.integrationId } },
    }),
  );
  const repository = repositories[0];
  if (!repository) throw new Error(`integration ${options.integrationId} lists no repositories to deploy`);
  log(
    `3. ${repositories.length} repositories; deploying ${repository.owner}/${repository.name} (${repository.default_branch})`,
  );

  // 4. A deployment from the repository record: the record's host_integration_id, url and
  //    default_branch go into integration_id, repo_url and repo_ref (interface spec, rule 4).
  // The codehost body type of the per-source table: a missing repo_ref or a stray image_uri would not compile.
  const deploymentRequest: DeploymentCreateFor<"codehost"> = {
    name: `walkthrough-${suffix}`,
    source: "codehost",
    source_config: { integration_id: repository.host_integration_id, repo_url: repository.url, build_on_push: false },
    source_revision_config: { repo_ref: repository.default_branch, graph_config_path: "graph.json" },
    secrets: [{ name: "MODEL_API_KEY", value: "walkthrough-secret-value" }],
  };
  const deployment = await unwrap(client.POST("/v2/deployments", { body: deploymentRequest }));
  log(`4. created deployment ${deployment.name} (id ${deployment.id}, status ${deployment.status})`);

  // 5. Every page of deployments, passing the returned offset as the next offset. A page shorter
  //    than the limit is the last; an offset that does not advance also ends the walk (a static
  //    mock answers every page with the same example).
  const seen = new Set<string>();
  const duplicateIds: string[] = [];
  let offset = 0;
  let pages = 0;
  for (;;) {
    const page = await unwrap(client.GET("/v2/deployments", { params: { query: { limit: pageSize, offset } } }));
    pages += 1;
    for (const listed of page.resources) {
      if (seen.has(listed.id)) duplicateIds.push(listed.id);
      seen.add(listed.id);
    }
    log(
      `5. page ${pages}: offset ${offset} -> ${page.offset}, ${page.resources.map((listed) => listed.name).join(", ") || "(empty)"}`,
    );
    if (page.resources.length < pageSize || page.offset <= offset || pages >= 1000) break;
    offset = page.offset;
  }
  log(
    `5. walked ${pages} page(s), ${seen.size} deployment(s); the new one ${seen.has(deployment.id) ? "is" : "is not"} among them`,
  );

  return {
    providersListed: providers.length,
    provider: { id: provider.id, provider_id: provider.provider_id },
    repositories: repositories.length,
    repository: {
      owner: repository.owner,
      name: repository.name,
      url: repository.url,
      default_branch: repository.default_branch,
    },
    deployment: { id: deployment.id, name: deployment.name, status: deployment.status, source: deployment.source },
    deploymentRequest,
    pages,
    deploymentsWalked: seen.size,
    duplicateIds,
    createdDeploymentListed: seen.has(deployment.id),
  };
}

/** `npm run example -- --base-url URL --api-key KEY [--tenant-id ID] [--integration-id ID] [--page-size N]`. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "base-url": { type: "string", default: process.env.BASE_URL ?? "http://127.0.0.1:4010" },
      "api-key": { type: "string", default: process.env.API_KEY ?? demo.acme.apiKey },
      "tenant-id": { type: "string", default: process.env.TENANT_ID ?? "" },
      "integration-id": { type: "string", default: process.env.INTEGRATION_ID ?? demo.acme.plainIntegrationId },
      "page-size": { type: "string", default: "2" },
    },
  });
  const result = await runWalkthrough({
    baseUrl: values["base-url"],
    apiKey: values["api-key"],
    ...(values["tenant-id"] ? { tenantId: values["tenant-id"] } : {}),
    integrationId: values["integration-id"],
    pageSize: Number(values["page-size"]),
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify({ msg: "walkthrough done", ...result, deploymentRequest: undefined }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    if (error instanceof ProblemError) {
      console.error(
        `The service refused: ${error.message}${error.problem?.errors ? ` ${JSON.stringify(error.problem.errors)}` : ""}`,
      );
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  });
}
