/** Tests of the sample requests: every operation of the contract gets one, at the contract's method and path, its integration filled in. */
import { describe, expect, it } from "vitest";
import { operation, operationList } from "../../contract/index.js";
import type { RunConfig } from "../cli/run-config.js";
import type { CheckContext } from "../runner/check.js";
import { sampledOperations, sampleRequest } from "./operation-samples.js";

/** Only what a sample reads of a check's context: the configuration and the run's names. */
function contextWith(config: Partial<RunConfig>): CheckContext {
  return {
    config: { hosting: "cloud", ...config },
    name: (label: string) => `run-${label}`,
  } as unknown as CheckContext;
}

const plain = "11111111-1111-4111-8111-111111111111";
const managed = "22222222-2222-4222-8222-222222222222";

describe("sampleRequest", () => {
  it("has a sample for every operation of the contract, in the contract's order", () => {
    expect(sampledOperations.map(({ operation }) => operation.id)).toEqual(operationList.map((o) => o.id));
  });

  const cases: {
    name: string;
    given: { id: string; config: Partial<RunConfig>; integration: "configured" | "any" };
    want: { method: string; path: string; body: boolean } | undefined;
  }[] = [
    {
      name: "a list without parameters",
      given: { id: "listDeployments", config: {}, integration: "configured" },
      want: { method: "GET", path: "/v2/deployments", body: false },
    },
    {
      name: "a create carries a valid body",
      given: { id: "createDeployment", config: {}, integration: "configured" },
      want: { method: "POST", path: "/v2/deployments", body: true },
    },
    {
      name: "the configured integration",
      given: { id: "listCodehostRepositories", config: { integrationId: plain }, integration: "configured" },
      want: { method: "GET", path: `/v1/integrations/codehost/${plain}/repos`, body: false },
    },
    {
      name: "no configured integration: left out",
      given: { id: "listManagedCodehostRepositories", config: { integrationId: plain }, integration: "configured" },
      want: undefined,
    },
    {
      name: "no managed integration: the plain one, when any will do",
      given: { id: "listManagedCodehostRepositories", config: { integrationId: plain }, integration: "any" },
      want: { method: "GET", path: `/v1/integrations/forge/codehost/${plain}/repos`, body: false },
    },
    {
      name: "the managed integration",
      given: {
        id: "listManagedCodehostRepositories",
        config: { integrationId: plain, managedIntegrationId: managed },
        integration: "any",
      },
      want: { method: "GET", path: `/v1/integrations/forge/codehost/${managed}/repos`, body: false },
    },
  ];

  it.each(cases)("$name", ({ given, want }) => {
    const request = sampleRequest(contextWith(given.config), operation(given.id), given.integration as "configured");
    expect(request && { method: request.method, path: request.path, body: request.json !== undefined }).toEqual(want);
    if (request) expect(request.operation).toBe(given.id);
  });

  it("sends an unknown but well-formed integration when none is configured and any will do", () => {
    const request = sampleRequest(contextWith({}), operation("listCodehostRepositories"), "any");
    expect(request.path).toMatch(/^\/v1\/integrations\/codehost\/[0-9a-f-]{36}\/repos$/);
  });
});
