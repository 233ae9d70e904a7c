/** The code-host repository record (interface spec: Code-host repository record), ready to be copied into a create request. */
import type { CodehostRepository } from "../../contract/schemas.js";
import type { CodehostRepositoryEntry } from "../codehost/port.js";

export function presentRepository(integrationId: string, repository: CodehostRepositoryEntry): CodehostRepository {
  return {
    host_integration_id: integrationId,
    id: repository.id,
    name: repository.name,
    owner: repository.owner,
    url: repository.url,
    default_branch: repository.defaultBranch,
  };
}
