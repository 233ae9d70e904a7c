/** codehost source resolution (D-48, D-53): the integration of the caller's tenant must hold repo_url, repo_ref must be one of its branches or tags, and repo_commit_sha is what it resolves to [D-49 to D-52]. */
import type { CodehostPort } from "../codehost/port.js";
import type { RuleViolation } from "./source-rules.js";

interface CodehostResolution {
  commitSha: string;
}

const tagPrefix = "refs/tags/";

/** The commit of repo_ref, or the violations that prevent resolving it. */
export async function resolveCodehostSource(
  codehost: CodehostPort,
  tenantId: string,
  source: { integrationId: string; repoUrl: string; repoRef: string; buildOnPush: boolean | null | undefined },
): Promise<CodehostResolution | RuleViolation[]> {
  const integration = await codehost.findIntegration(tenantId, source.integrationId);
  if (!integration) {
    return [
      {
        field: "source_config.integration_id",
        pointer: "/source_config/integration_id",
        detail: "is not a code-host integration of this tenant",
      },
    ];
  }
  const wanted = comparableRepoUrl(source.repoUrl);
  const repository =
    wanted === undefined ? undefined : integration.repositories.find((r) => comparableRepoUrl(r.url) === wanted);
  if (!repository) {
    return [
      {
        field: "source_config.repo_url",
        pointer: "/source_config/repo_url",
        detail: "is not a repository of the integration",
      },
    ];
  }
  const isTag = source.repoRef.startsWith(tagPrefix);
  const commitSha = isTag ? repository.tags[source.repoRef] : repository.branches[source.repoRef];
  const violations: RuleViolation[] = [];
  if (commitSha === undefined) {
    violations.push({
      field: "source_revision_config.repo_ref",
      pointer: "/source_revision_config/repo_ref",
      detail: isTag
        ? "is not a tag of the repository"
        : "is not a branch of the repository (a tag is written refs/tags/<name>)",
    });
  }
  if (isTag && source.buildOnPush === true) {
    violations.push({
      field: "source_config.build_on_push",
      pointer: "/source_config/build_on_push",
      detail: "cannot be enabled when repo_ref is a tag",
    });
  }
  if (violations.length > 0 || commitSha === undefined) return violations;
  return { commitSha };
}

/** Scheme, host (lower-case) and path without a trailing slash or `.git`; undefined when not a URL. */
function comparableRepoUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    const path = url.pathname.replace(/\/+$/, "").replace(/\.git$/, "");
    return `${url.protocol}//${url.host.toLowerCase()}${path}`;
  } catch {
    return undefined;
  }
}
