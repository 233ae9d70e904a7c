/** Tests of the operation-path option (D-382): which lines are taken, and where an operation is sent. */
import { describe, expect, it } from "vitest";
import { operationPathLines, parseOperationPaths, routeOf } from "./operation-paths.js";

describe("parseOperationPaths", () => {
  const cases: { name: string; given: string[]; want: unknown }[] = [
    { name: "none", given: [], want: {} },
    {
      name: "operation 4 elsewhere",
      given: ["listManagedCodehostRepositories=get /v1/managed/{integration_id}/repositories"],
      want: { listManagedCodehostRepositories: { method: "GET", path: "/v1/managed/{integration_id}/repositories" } },
    },
    {
      name: "the config file's object form (name: value)",
      given: ["listManagedCodehostRepositories: POST /m/{integration_id}"],
      want: { listManagedCodehostRepositories: { method: "POST", path: "/m/{integration_id}" } },
    },
    {
      name: "an operation whose path the interface shows",
      given: ["listDeployments=GET /deployments"],
      want: expect.stringMatching(/not an operation whose path the interface spec leaves open/),
    },
    {
      name: "a path without the integration id",
      given: ["listManagedCodehostRepositories=GET /v1/repos"],
      want: expect.stringMatching(/must hold \{integration_id\}/),
    },
    {
      name: "no method",
      given: ["listManagedCodehostRepositories=/v1/{integration_id}"],
      want: expect.stringMatching(/must be/),
    },
  ];
  for (const c of cases) it(c.name, () => expect(parseOperationPaths(c.given)).toEqual(c.want));
});

describe("routeOf", () => {
  it("is the contract's route when none is given", () =>
    expect(routeOf({ operationPaths: {} }, "listManagedCodehostRepositories")).toEqual({
      method: "GET",
      path: "/v1/integrations/forge/codehost/{integration_id}/repos",
    }));
  it("is the given route, and a replay line says it again", () => {
    const config = {
      operationPaths: { listManagedCodehostRepositories: { method: "GET", path: "/m/{integration_id}" } },
    };
    expect(routeOf(config, "listManagedCodehostRepositories").path).toBe("/m/{integration_id}");
    expect(parseOperationPaths(operationPathLines(config))).toEqual(config.operationPaths);
  });
});
