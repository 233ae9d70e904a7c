/** Command-line flags that point the conformance suite at a target serving the kit's demo data (contract/demo-fixture.json). */
import { demo } from "../../contract/index.js";

/** The suite's flags for a demo-data target: Acme's key, integrations and second tenant, Globex's key for the isolation checks. */
export function demoFlags(baseUrl: string, hosting: "cloud" | "self_hosted" = "cloud"): string[] {
  return [
    "--base-url",
    baseUrl,
    "--api-key",
    demo.acme.apiKey,
    "--other-tenant-id",
    demo.acme.stagingTenantId,
    "--other-api-key",
    demo.globex.apiKey,
    "--integration-id",
    demo.acme.plainIntegrationId,
    "--managed-integration-id",
    demo.acme.managedIntegrationId,
    "--hosting",
    hosting,
  ];
}
