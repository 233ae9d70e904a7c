/** The reference server's demo keys and integrations (brief: demo data), used by our one-command runs. */
export const demo = {
  acmeKey: "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f",
  globexKey: "dk_demo_globex_8a1c3e5f7b9d2f4a6c8e",
  acmeProductionTenant: "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f",
  integrationId: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
  managedIntegrationId: "5e2d3b0f-6c8e-4f3a-9b7d-2e1f0c9b8d76",
};

/** Command-line flags that point the suite at a demo-data reference server. */
export function demoFlags(baseUrl: string, hosting: "cloud" | "self_hosted" = "cloud"): string[] {
  return [
    "--base-url", baseUrl,
    "--api-key", demo.acmeKey,
    "--other-api-key", demo.globexKey,
    "--integration-id", demo.integrationId,
    "--managed-integration-id", demo.managedIntegrationId,
    "--hosting", hosting,
  ];
}
