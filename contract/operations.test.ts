/** The operations table generated from the contract: every operation with its statuses, parameters and body pointers. */
import { describe, expect, it } from "vitest";
import { createContractAjv } from "./ajv.js";
import { examplePath, operation, operationList } from "./operations.js";

describe("operations table", () => {
  const cases = [
    {
      given: "createOAuthProvider",
      want: { method: "post", path: "/v2/auth/providers", successStatus: 200, body: true },
    },
    {
      given: "listOAuthProviders",
      want: { method: "get", path: "/v2/auth/providers", successStatus: 200, body: false },
    },
    {
      given: "listCodehostRepositories",
      want: {
        method: "get",
        path: "/v1/integrations/codehost/{integration_id}/repos",
        successStatus: 200,
        body: false,
      },
    },
    {
      given: "listManagedCodehostRepositories",
      want: {
        method: "get",
        path: "/v1/integrations/forge/codehost/{integration_id}/repos",
        successStatus: 200,
        body: false,
      },
    },
    { given: "listDeployments", want: { method: "get", path: "/v2/deployments", successStatus: 200, body: false } },
    { given: "createDeployment", want: { method: "post", path: "/v2/deployments", successStatus: 201, body: true } },
  ];
  it.each(cases)("$given", ({ given, want }) => {
    const entry = operation(given);
    expect({
      method: entry.method,
      path: entry.path,
      successStatus: entry.successStatus,
      body: entry.requestBody !== undefined,
    }).toEqual(want);
    expect(entry.statuses).toContain(want.successStatus);
  });

  it("has the six operations of the interface spec (and any the contract adds)", () => {
    expect(operationList.map((entry) => entry.id)).toEqual(expect.arrayContaining(cases.map((c) => c.given)));
  });

  it("dereferences parameter schemas", () => {
    const status = operation("listDeployments").parameters.find((parameter) => parameter.name === "status");
    expect(status).toMatchObject({
      in: "query",
      required: false,
      explode: false,
      schema: { type: "array", items: { enum: expect.arrayContaining(["READY"]) } },
    });
    expect(JSON.stringify(operation("listDeployments").parameters)).not.toContain("$ref");
  });

  it("points every body at a schema Ajv resolves in the document", () => {
    const ajv = createContractAjv();
    for (const entry of operationList) {
      for (const body of [entry.requestBody, ...Object.values(entry.responses)]) {
        if (body) expect(() => ajv.at(body.pointer), `${entry.id} ${body.pointer}`).not.toThrow();
      }
    }
  });

  it("throws for an operation the contract does not have", () => {
    expect(() => operation("deleteDeployment")).toThrow(/no operation deleteDeployment/);
  });
});

describe("examplePath", () => {
  it.each([
    { given: { id: "listDeployments", values: {} }, want: "/v2/deployments" },
    {
      given: { id: "listCodehostRepositories", values: { integration_id: "abc" } },
      want: "/v1/integrations/codehost/abc/repos",
    },
    {
      given: { id: "listManagedCodehostRepositories", values: {} },
      want: "/v1/integrations/forge/codehost/00000000-0000-4000-8000-000000000000/repos",
    },
    {
      given: { id: "listCodehostRepositories", values: { integration_id: "a b" } },
      want: "/v1/integrations/codehost/a%20b/repos",
    },
  ])("$given.id with $given.values", ({ given, want }) => {
    expect(examplePath(operation(given.id), given.values as Record<string, string>)).toBe(want);
  });
});
