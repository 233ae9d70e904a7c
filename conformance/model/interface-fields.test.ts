/** Which request fields the interface spec's tables name (MUST) and which only the contract declares (SHOULD). */
import { describe, expect, it } from "vitest";
import { isInterfaceField } from "./interface-fields.js";

describe("isInterfaceField", () => {
  it.each([
    { operation: "createOAuthProvider", path: "provider_type", want: true },
    { operation: "createOAuthProvider", path: "description", want: false },
    { operation: "createDeployment", path: "secret_references", want: true },
    { operation: "createDeployment", path: "source_config.install_command", want: true },
    { operation: "createDeployment", path: "source_config.description", want: false },
    { operation: "createDeployment", path: "source_revision_config.image_uri", want: true },
    { operation: "createDeployment", path: "secrets.value", want: true },
    { operation: "createDeployment", path: "source_config.resource_spec.db_storage_gi", want: true },
    { operation: "createDeployment", path: "source_config.resource_spec.sidecars.args", want: true },
    { operation: "createDeployment", path: "source_config.resource_spec.sidecars.description", want: false },
    { operation: "createDeployment", path: "source_config.listener_config.cluster_namespace", want: true },
    { operation: "listDeployments", path: "query.deployment_ids", want: true },
    { operation: "listDeployments", path: "query.sort", want: false },
  ])("$operation $path", ({ operation, path, want }) => {
    expect(isInterfaceField(operation, path)).toBe(want);
  });
});
