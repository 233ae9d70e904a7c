/** Request bodies and demo ids shared by the server tests (D-77). */
import { demo } from "../../contract/demo.js";

export const ids = {
  acmeProduction: demo.acme.productionTenantId,
  acmeStaging: demo.acme.stagingTenantId,
  globexProduction: demo.globex.productionTenantId,
  plainIntegration: demo.acme.plainIntegrationId,
  managedIntegration: demo.acme.managedIntegrationId,
  globexIntegration: demo.globex.plainIntegrationId,
};

/** A valid codehost create body (cloud). */
export function codehostBody(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    source: "codehost",
    source_config: {
      integration_id: ids.plainIntegration as string,
      repo_url: "https://codehost.example/acme/support-agent",
      build_on_push: true as boolean | null,
    },
    source_revision_config: { repo_ref: "main" as string, graph_config_path: "graph.json" },
    secrets: [],
    ...overrides,
  };
}

/** A valid body for each source. */
export function bodyFor(source: string, name: string): Record<string, unknown> {
  switch (source) {
    case "codehost":
      return codehostBody(name);
    case "external_container":
      return {
        name,
        source,
        source_config: { custom_url: "https://billing.example", resource_spec: { cpu: 0.5 } },
        source_revision_config: { image_uri: "registry.example/billing:1.4.2" },
        secrets: [],
        secret_references: [{ name: "DB", secret_name: "db", secret_key: "url" }],
      };
    case "internal_container":
      return {
        name,
        source,
        source_config: {},
        source_revision_config: { image_uri: "registry.example/agent:2.0.0" },
        secrets: [],
      };
    case "internal_source":
      return {
        name,
        source,
        source_config: { install_command: "npm ci" },
        source_revision_config: { source_tarball_path: "uploads/agent.tgz", graph_config_path: "graph.json" },
        secrets: [],
      };
    case "internal_template":
      return { name, source, source_config: {}, source_revision_config: {}, secrets: [] };
    default:
      throw new Error(`unknown source ${source}`);
  }
}

export function providerBody(providerId: string, overrides: Record<string, unknown> = {}) {
  return {
    provider_id: providerId,
    name: `Provider ${providerId}`,
    client_id: "client-123",
    auth_url: "https://auth.example/authorize",
    token_url: "https://auth.example/token",
    ...overrides,
  };
}
