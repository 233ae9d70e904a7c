/** The code-host integrations of a sandbox session (D-79): demo tenants see their own (D-77); every provisioned sandbox tenant sees those of the demo tenant it is modelled on. */
import type { CodehostIntegration, CodehostPort } from "../../../server/engine.js";

export class SandboxCodehost implements CodehostPort {
  private readonly sandboxTenants = new Set<string>();

  constructor(
    private readonly fixture: CodehostPort,
    /** The demo tenant whose integrations a sandbox tenant sees. */
    private readonly modelTenantId: string,
  ) {}

  /** Lets a provisioned sandbox tenant see the model tenant's integrations. */
  addSandboxTenant(tenantId: string): void {
    this.sandboxTenants.add(tenantId);
  }

  async findIntegration(tenantId: string, integrationId: string): Promise<CodehostIntegration | undefined> {
    const own = await this.fixture.findIntegration(tenantId, integrationId);
    if (own || !this.sandboxTenants.has(tenantId)) return own;
    const modelled = await this.fixture.findIntegration(this.modelTenantId, integrationId);
    return modelled && { ...modelled, tenantId };
  }
}
