/**
 * `deployment-mock proxy --record FILE` (D-323): what the upstream answered to the reads and creates that passed
 * through, as a state in the one format (mock-state.ts) that `--seed` and `PUT /__mock/state` load. Deployments are
 * kept by id (the latest answer wins), providers by id, repositories by integration; secret values, every field the
 * contract marks secret and every credential of the request an answer echoed are dropped (D-398).
 */
import { matchPath } from "../../contract/index.js";
import type { CodehostRepository, Deployment, OAuthProvider } from "../../contract/schemas.js";
import { type MockState, microsOf, mockStateFormat, type StateDeployment } from "./engine/mock-state.js";
import { withoutSecrets } from "./secret-leaks.js";

/** Collects the upstream's successful answers into a seed. */
export class SeedRecorder {
  private readonly deployments = new Map<string, StateDeployment>();
  private readonly providers = new Map<string, OAuthProvider>();
  private readonly repositories: Record<string, CodehostRepository[]> = {};

  /** Takes one exchange (`credentials`: what its request carried); answers that are not a success of a recorded operation are ignored. */
  observe(method: string, target: string, status: number, body: Buffer, credentials: readonly string[] = []): void {
    if (status < 200 || status >= 300) return;
    const match = matchPath(method, new URL(target, "http://upstream").pathname);
    if (match.kind !== "operation") return;
    const read = () => withoutSecrets(JSON.parse(body.toString("utf8")) as unknown, credentials);
    switch (match.operation.id) {
      case "listDeployments":
        for (const deployment of (read() as { resources: Deployment[] }).resources) this.deployment(deployment);
        break;
      case "createDeployment":
        this.deployment(read() as Deployment);
        break;
      case "listOAuthProviders":
        for (const provider of read() as OAuthProvider[]) this.providers.set(provider.id, provider);
        break;
      case "createOAuthProvider": {
        const provider = read() as OAuthProvider;
        this.providers.set(provider.id, provider);
        break;
      }
      case "listCodehostRepositories":
      case "listManagedCodehostRepositories":
        this.repositories[match.pathParameters.integration_id ?? ""] = read() as CodehostRepository[];
        break;
    }
  }

  /** The recorded state: deployments newest first and providers oldest first, as the upstream lists them. */
  state(): MockState {
    const byTime = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
      microsOf(a.created_at) - microsOf(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return {
      format: mockStateFormat,
      deployments: [...this.deployments.values()].sort(byTime).reverse(),
      oauth_providers: [...this.providers.values()].sort(byTime),
      repositories: this.repositories,
    };
  }

  /** Keeps a deployment without its secret values (D-323). */
  private deployment({ secrets, ...rest }: Deployment): void {
    this.deployments.set(rest.id, { ...rest, secrets: secrets.map(({ name }) => ({ name })) });
  }
}
