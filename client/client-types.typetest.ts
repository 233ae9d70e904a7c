/**
 * Type tests for generated/client.ts: a wrong path, a missing required field or a wrong enum value
 * must not compile, a correct call does. Compiled by `npm run typecheck`, never
 * run. Each `@ts-expect-error` sits on the one line that is wrong; the rest of its call is correct,
 * so the directive fails the build if that line ever compiles.
 */
import { demo } from "../contract/index.js";
import type {
  CodehostRepository,
  Deployment,
  DeploymentCreateFor,
  DeploymentList,
  OAuthProvider,
  OperationId,
  Problem,
} from "../generated/client.js";
import { createServiceClient, isProblem, operations, ProblemError, unwrap } from "../generated/client.js";
import type { paths } from "../generated/types.js";

/** The JSON body the client takes for a POST path. */
type RequestBody<Path extends "/v2/deployments" | "/v2/auth/providers"> =
  paths[Path]["post"]["requestBody"]["content"]["application/json"];

const client = createServiceClient({
  baseUrl: "http://127.0.0.1:8080",
  apiKey: demo.acme.apiKey,
  tenantId: demo.acme.productionTenantId,
  headers: { "X-Mock-Session": "s1" },
});
const integrationId = demo.acme.plainIntegrationId;

/** Calls that follow the contract compile, and their results have the contract's types. */
export async function correctCalls(): Promise<void> {
  const provider: OAuthProvider = await unwrap(
    client.POST("/v2/auth/providers", {
      body: {
        provider_id: "acme-slack",
        name: "Acme Slack",
        client_id: "1234567890.0987654321",
        auth_url: "https://slack.com/oauth/v2/authorize",
        token_url: "https://slack.com/api/oauth.v2.access",
        client_secret: null,
        uses_pkce: true,
        code_challenge_method: "plain",
        provider_type: "slack",
        token_endpoint_auth_method: "none",
      },
    }),
  );
  // Only the five required fields: the fields with defaults stay optional for the sender.
  const minimal: OAuthProvider = await unwrap(
    client.POST("/v2/auth/providers", {
      body: {
        provider_id: "acme-salesforce",
        name: "Acme Salesforce",
        client_id: "3MVG9acme.client",
        auth_url: "https://login.salesforce.com/services/oauth2/authorize",
        token_url: "https://login.salesforce.com/services/oauth2/token",
      },
    }),
  );
  const minimalDeployment: Deployment = await unwrap(
    client.POST("/v2/deployments", {
      body: {
        name: "starter-chat",
        source: "internal_template",
        source_config: {},
        source_revision_config: {},
        secrets: [],
      },
    }),
  );
  const providers: OAuthProvider[] = await unwrap(client.GET("/v2/auth/providers"));
  const repositories: CodehostRepository[] = await unwrap(
    client.GET("/v1/integrations/codehost/{integration_id}/repos", {
      params: { path: { integration_id: integrationId } },
    }),
  );
  const managed: CodehostRepository[] = await unwrap(
    client.GET("/v1/integrations/forge/codehost/{integration_id}/repos", {
      params: { path: { integration_id: integrationId } },
    }),
  );
  const page: DeploymentList = await unwrap(
    client.GET("/v2/deployments", {
      params: {
        query: {
          limit: 20,
          offset: 0,
          name_contains: "agent",
          status: ["READY", "AWAITING_DATABASE"],
          remote_reconciled: false,
          tag_value_ids: [],
          image_version: "1.4.2",
          deployment_type: "dev",
          deployment_ids: ["7c9e6679-7425-40de-944b-e07fc1f90ae7"],
        },
      },
    }),
  );
  const repository = repositories[0]!;
  const created: Deployment = await unwrap(
    client.POST("/v2/deployments", {
      body: {
        name: "support-agent",
        source: "codehost",
        // Rule 4 of operation 6: the repository record's fields go straight into the request.
        source_config: {
          integration_id: repository.host_integration_id,
          repo_url: repository.url,
          build_on_push: false,
        },
        source_revision_config: { repo_ref: repository.default_branch, graph_config_path: "graph.json" },
        secrets: [{ name: "MODEL_API_KEY", value: "value" }],
      },
    }),
  );
  const external: Deployment = await unwrap(
    client.POST("/v2/deployments", {
      body: {
        name: "billing-graph",
        source: "external_container",
        source_config: {
          resource_spec: { cpu: 0.5, memory_mb: 1024, sidecars: [{ name: "log", image: "log:1" }] },
          listener_id: null,
        },
        source_revision_config: { image_uri: "registry.acme.example/billing-graph:1.4.2" },
        secrets: [],
        secret_references: [{ name: "DATABASE_URL", secret_name: "billing-db", secret_key: "url" }],
      },
    }),
  );
  // Response-only fields are readable on responses.
  const readable: Array<string | null | boolean | undefined> = [
    provider.mcp_server_url,
    provider.is_dynamic_client,
    created.source_revision_config.repo_commit_sha,
    created.latest_revision_id,
    external.status,
  ];
  const operationId: OperationId = "createDeployment";
  const success: 201 = operations[operationId].successStatus;
  void [minimal, minimalDeployment, providers, managed, page.offset, page.resources, readable, success];

  // Errors: the typed problem detail of the response, or a ProblemError from unwrap.
  const { error } = await client.GET("/v2/deployments", { params: { query: { limit: 0 } } });
  if (error) {
    const problem: Problem = error;
    const status: number = problem.status;
    void status;
  }
  try {
    await unwrap(client.GET("/v2/auth/providers"));
  } catch (caught) {
    if (caught instanceof ProblemError && caught.problem) {
      const type: Problem["type"] = caught.problem.type;
      void type;
    }
    if (isProblem(caught)) void caught.detail;
  }
}

/** Calls that break the contract do not compile. */
export async function wrongCalls(): Promise<void> {
  // A path that is not in the contract.
  // @ts-expect-error "/v2/deployment" is not a path of the contract
  await client.GET("/v2/deployment", {});

  // A method the path does not have.
  // @ts-expect-error DELETE is not an operation of /v2/deployments
  await client.DELETE("/v2/deployments");

  // A missing required body field: the error is reported on `body`.
  await client.POST("/v2/deployments", {
    // @ts-expect-error `secrets` is required
    body: {
      name: "support-agent",
      source: "internal_template",
      source_config: {},
      source_revision_config: {},
    },
  });

  // A missing required field of the provider request.
  await client.POST("/v2/auth/providers", {
    // @ts-expect-error `token_url` is required
    body: {
      provider_id: "acme-slack",
      name: "Acme Slack",
      client_id: "1234567890.0987654321",
      auth_url: "https://slack.com/oauth/v2/authorize",
    },
  });

  // A wrong enum value.
  await client.POST("/v2/deployments", {
    body: {
      name: "support-agent",
      // @ts-expect-error "github" is not a DeploymentSource
      source: "github",
      source_config: {},
      source_revision_config: {},
      secrets: [],
    },
  });
  await client.GET("/v2/deployments", {
    params: {
      query: {
        // @ts-expect-error "RUNNING" is not a DeploymentStatus
        status: ["RUNNING"],
      },
    },
  });
  await client.POST("/v2/auth/providers", {
    body: {
      provider_id: "acme-slack",
      name: "Acme Slack",
      client_id: "1234567890.0987654321",
      auth_url: "https://slack.com/oauth/v2/authorize",
      token_url: "https://slack.com/api/oauth.v2.access",
      // @ts-expect-error "S512" is not a code challenge method (D-02)
      code_challenge_method: "S512",
    },
  });

  // A wrong query parameter type.
  await client.GET("/v2/deployments", {
    params: {
      query: {
        // @ts-expect-error `limit` is an integer, not a string
        limit: "20",
      },
    },
  });
  await client.GET("/v2/deployments", {
    params: {
      query: {
        // @ts-expect-error `deployment_ids` is a list, not one comma-joined string
        deployment_ids: "7c9e6679-7425-40de-944b-e07fc1f90ae7,16fd2706-8baf-433b-82eb-8c7fada847da",
      },
    },
  });

  // A missing path parameter.
  await client.GET("/v1/integrations/codehost/{integration_id}/repos", {
    // @ts-expect-error `integration_id` is required
    params: { path: {} },
  });

  // Response-only fields in a request. The request body types leave them out (D-67). These use the
  // body type the client takes for the path, annotated: openapi-fetch infers its init argument, and
  // an inferred argument that satisfies the body type is not checked for excess keys.
  // TypeScript reports only the first unknown key of a literal, hence one literal per field.
  const template = {
    name: "starter-chat",
    source: "internal_template",
    source_config: {},
    secrets: [],
  } as const satisfies Partial<RequestBody<"/v2/deployments">>;
  const withCommit: RequestBody<"/v2/deployments"> = {
    ...template,
    source_revision_config: {
      // @ts-expect-error `repo_commit_sha` is response-only
      repo_commit_sha: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    },
  };
  const withStatus: RequestBody<"/v2/deployments"> = {
    ...template,
    source_revision_config: {},
    // @ts-expect-error `status` is read-only
    status: "READY",
  };
  const withId: RequestBody<"/v2/deployments"> = {
    ...template,
    source_revision_config: {},
    // @ts-expect-error `id` is read-only
    id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  };
  const providerFields = {
    provider_id: "acme-slack",
    name: "Acme Slack",
    client_id: "1234567890.0987654321",
    auth_url: "https://slack.com/oauth/v2/authorize",
    token_url: "https://slack.com/api/oauth.v2.access",
  };
  const withDynamic: RequestBody<"/v2/auth/providers"> = {
    ...providerFields,
    // @ts-expect-error `is_dynamic_client` is response-only
    is_dynamic_client: true,
  };
  const withMcp: RequestBody<"/v2/auth/providers"> = {
    ...providerFields,
    // @ts-expect-error `mcp_server_url` is response-only
    mcp_server_url: null,
  };
  // The same bodies without the response-only field are what the client sends.
  await client.POST("/v2/deployments", { body: { ...template, source_revision_config: {} } });
  await client.POST("/v2/auth/providers", { body: providerFields });
  void [withCommit, withStatus, withId, withDynamic, withMcp];

  // A request-only field read from a response.
  const provider = await unwrap(client.GET("/v2/auth/providers"));
  // @ts-expect-error `client_secret` is never returned
  void provider[0]?.client_secret;

  // A value that is nullable in the contract must be checked before use.
  const page = await unwrap(client.GET("/v2/deployments"));
  // @ts-expect-error `latest_revision_id` may be null
  page.resources[0]?.latest_revision_id.toUpperCase();

  // createServiceClient needs an API key.
  // @ts-expect-error `apiKey` is required
  createServiceClient({ baseUrl: "http://127.0.0.1:8080" });

  // Default headers are names mapped to strings.
  createServiceClient({
    baseUrl: "http://127.0.0.1:8080",
    apiKey: demo.acme.apiKey,
    // @ts-expect-error a header's value is a string
    headers: { "X-Mock-Session": 1 },
  });
  createServiceClient({
    baseUrl: "http://127.0.0.1:8080",
    apiKey: demo.acme.apiKey,
    // @ts-expect-error headers are an object of names and values, not a header line
    headers: "X-Mock-Session: s1",
  });
}

/**
 * The per-source table as types (D-48, D-201): each source's body needs the fields the source requires and
 * cannot carry the ones it forbids, in `client.POST("/v2/deployments")` and in `DeploymentCreateFor<source>`.
 */
export async function perSourceBodies(): Promise<void> {
  const image = "registry.acme.example/billing-graph:1.4.2";
  // One correct body per source compiles.
  const bodies: DeploymentCreateFor[] = [
    {
      name: "support-agent",
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: "https://codehost.example/acme/a",
        build_on_push: true,
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
      secrets: [],
    },
    {
      name: "billing-graph",
      source: "external_container",
      source_config: { custom_url: "https://billing.acme.example", listener_id: null },
      source_revision_config: { image_uri: image },
      secrets: [],
      secret_references: [{ name: "DATABASE_URL", secret_name: "billing-db", secret_key: "url" }],
    },
    {
      name: "ledger",
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: image },
      secrets: [],
    },
    {
      name: "uploaded",
      source: "internal_source",
      source_config: { install_command: "npm ci" },
      source_revision_config: { source_tarball_path: "uploads/a.tar.gz", graph_config_path: "graph.json" },
      secrets: [],
    },
    { name: "starter", source: "internal_template", source_config: {}, source_revision_config: {}, secrets: [] },
  ];
  for (const body of bodies) await client.POST("/v2/deployments", { body });

  // A codehost body without the repository fields (the issue's own example).
  const noRepository: DeploymentCreateFor<"codehost"> = {
    name: "support-agent",
    source: "codehost",
    // @ts-expect-error codehost requires integration_id and repo_url
    source_config: {},
    source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
    secrets: [],
  };
  // In a call the error is reported on `body`, or on the group that holds the wrong field.
  await client.POST("/v2/deployments", {
    // @ts-expect-error codehost requires integration_id and repo_url
    body: {
      name: "support-agent",
      source: "codehost",
      source_config: {},
      source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
      secrets: [],
    },
  });
  // A field the source forbids.
  await client.POST("/v2/deployments", {
    body: {
      name: "billing-graph",
      source: "internal_container",
      source_config: {},
      // @ts-expect-error graph_config_path is forbidden for internal_container
      source_revision_config: { image_uri: image, graph_config_path: "graph.json" },
      secrets: [],
    },
  });
  await client.POST("/v2/deployments", {
    // @ts-expect-error secret_references is only for external_container
    body: {
      name: "starter",
      source: "internal_template",
      source_config: {},
      source_revision_config: {},
      secrets: [],
      secret_references: [],
    },
  });
  // A required field set to null.
  await client.POST("/v2/deployments", {
    body: {
      name: "uploaded",
      source: "internal_source",
      source_config: {},
      source_revision_config: {
        // @ts-expect-error internal_source requires source_tarball_path
        source_tarball_path: null,
        graph_config_path: "graph.json",
      },
      secrets: [],
    },
  });
  void noRepository;
}
