/** The code-host port (code-host integrations behind a port): integrations of a tenant with their repositories, branches and tags. */

/** A plain integration (operation 3) or a managed, vendor-app one (operation 4, D-10). */
export type IntegrationKind = "plain" | "managed";

export interface CodehostRepositoryEntry {
  id: number;
  owner: string;
  name: string;
  url: string;
  defaultBranch: string;
  /** Branch name to commit sha. */
  branches: Record<string, string>;
  /** Full tag ref (`refs/tags/v1.0.0`) to commit sha. */
  tags: Record<string, string>;
}

export interface CodehostIntegration {
  id: string;
  tenantId: string;
  kind: IntegrationKind;
  repositories: CodehostRepositoryEntry[];
}

export interface CodehostPort {
  /** The integration if it belongs to the tenant; another tenant's integration is not found. */
  findIntegration(tenantId: string, integrationId: string): Promise<CodehostIntegration | undefined>;
}
