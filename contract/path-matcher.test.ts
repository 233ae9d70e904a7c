/** The path matcher against every path template of the contract. */
import { describe, expect, it } from "vitest";
import { matchPath } from "./path-matcher.js";

const integration = "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";

describe("matchPath", () => {
  const cases: Array<{
    given: [string, string];
    want: { kind: string; id?: string; pathParameters?: Record<string, string>; allow?: string[] };
  }> = [
    { given: ["GET", "/v2/deployments"], want: { kind: "operation", id: "listDeployments", pathParameters: {} } },
    { given: ["POST", "/v2/deployments"], want: { kind: "operation", id: "createDeployment", pathParameters: {} } },
    {
      given: ["HEAD", "/v2/auth/providers"],
      want: { kind: "operation", id: "listOAuthProviders", pathParameters: {} },
    },
    {
      given: ["get", `/v1/integrations/codehost/${integration}/repos`],
      want: { kind: "operation", id: "listCodehostRepositories", pathParameters: { integration_id: integration } },
    },
    {
      given: ["GET", `/v1/integrations/forge/codehost/${integration}/repos`],
      want: {
        kind: "operation",
        id: "listManagedCodehostRepositories",
        pathParameters: { integration_id: integration },
      },
    },
    {
      given: ["GET", "/v1/integrations/codehost/a%20b/repos"],
      want: { kind: "operation", id: "listCodehostRepositories", pathParameters: { integration_id: "a b" } },
    },
    {
      given: ["GET", "/v1/integrations/codehost/%E0%A4%A/repos"],
      want: { kind: "operation", id: "listCodehostRepositories", pathParameters: { integration_id: "%E0%A4%A" } },
    },
    { given: ["DELETE", "/v2/deployments"], want: { kind: "method-not-allowed", allow: ["GET", "POST", "HEAD"] } },
    {
      given: ["PUT", `/v1/integrations/codehost/${integration}/repos`],
      want: { kind: "method-not-allowed", allow: ["GET", "HEAD"] },
    },
    { given: ["GET", "/v2/deployments/"], want: { kind: "unknown" } },
    { given: ["GET", "/v1/integrations/codehost//repos"], want: { kind: "unknown" } },
    { given: ["GET", "/v1/integrations/codehost/a/b/repos"], want: { kind: "unknown" } },
    { given: ["GET", "/v3/deployments"], want: { kind: "unknown" } },
  ];
  it.each(cases)("$given", ({ given, want }) => {
    const match = matchPath(...given);
    expect(match.kind).toBe(want.kind);
    if (match.kind === "operation") {
      expect(match.operation.id).toBe(want.id);
      expect(match.pathParameters).toEqual(want.pathParameters);
    }
    if (match.kind === "method-not-allowed") expect(match.allow).toEqual(want.allow);
  });
});
