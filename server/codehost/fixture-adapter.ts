/** Fixture adapter of the code-host port: integrations, repositories, branches, tags and commit shas from a JSON seed file. */
import fs from "node:fs";
import type { DemoFixture } from "../../contract/demo.js";
import type { CodehostIntegration, CodehostPort, CodehostRepositoryEntry } from "./port.js";

/** The seed file's shape: the integrations part of the demo fixture (D-77). */
type FixtureFile = Pick<DemoFixture, "integrations">;

/** Read-only, so several processes loading the same file agree. */
export class FixtureCodehost implements CodehostPort {
  private readonly integrations = new Map<string, CodehostIntegration>();

  constructor(fixture: FixtureFile) {
    for (const integration of fixture.integrations) {
      const repositories: CodehostRepositoryEntry[] = integration.repositories.map((r) => {
        if (!(r.default_branch in r.branches))
          throw new Error(`fixture: ${r.owner}/${r.name} lacks its default branch`);
        return {
          id: r.id,
          owner: r.owner,
          name: r.name,
          url: r.url,
          defaultBranch: r.default_branch,
          branches: r.branches,
          tags: r.tags ?? {},
        };
      });
      this.integrations.set(integration.id.toLowerCase(), {
        id: integration.id.toLowerCase(),
        tenantId: integration.tenant_id.toLowerCase(),
        kind: integration.kind,
        repositories,
      });
    }
  }

  /** Loads a seed file; a missing path means no integrations. */
  static fromFile(file: string | URL | undefined): FixtureCodehost {
    if (file === undefined) return new FixtureCodehost({ integrations: [] });
    return new FixtureCodehost(JSON.parse(fs.readFileSync(file, "utf8")) as FixtureFile);
  }

  async findIntegration(tenantId: string, integrationId: string): Promise<CodehostIntegration | undefined> {
    const integration = this.integrations.get(integrationId.toLowerCase());
    return integration && integration.tenantId === tenantId ? integration : undefined;
  }
}
