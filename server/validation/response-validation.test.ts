/** Tests of response validation and of 5xx answers (D-16): a response that breaks the contract is logged and answered 500 without internals. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import type { CodehostPort } from "../codehost/port.js";
import { ids } from "../testing/fixtures.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";
import { responseChecker } from "./response-validator.js";

/** A code-host port whose data breaks the contract (a repository id that is not an integer), or that fails. */
const brokenCodehost: CodehostPort = {
  async findIntegration(tenantId, integrationId) {
    if (integrationId === ids.managedIntegration) throw new Error("codehost exploded at /srv/internal/path.ts:42");
    return {
      id: integrationId,
      tenantId,
      kind: "plain",
      repositories: [
        {
          id: 1.5,
          owner: "acme",
          name: "x",
          url: "https://codehost.example/acme/x",
          defaultBranch: "main",
          branches: { main: "a".repeat(40) },
          tags: {},
        },
      ],
    };
  },
};

let checked: TestServer;
let unchecked: TestServer;
beforeAll(async () => {
  [checked, unchecked] = await Promise.all([
    startTestServer({}, { codehost: brokenCodehost }),
    startTestServer({ validateResponses: false }, { codehost: brokenCodehost }),
  ]);
});
afterAll(async () => {
  await Promise.all([checked?.close(), unchecked?.close()]);
});

describe("response validation", () => {
  it("answers 500 and logs the breach when on", async () => {
    const response = await checked.request("GET", `/v1/integrations/codehost/${ids.plainIntegration}/repos`);
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ type: "urn:deployment-service:problem:internal", status: 500 });
    expect(response.text).not.toContain("1.5");
    expect(checked.logs.some((line) => line.includes("response breaks the contract") && line.includes("/0/id"))).toBe(
      true,
    );
  });

  it("lets the response through when off", async () => {
    const response = await unchecked.request("GET", `/v1/integrations/codehost/${ids.plainIntegration}/repos`);
    expect(response.status).toBe(200);
  });

  it("answers an unexpected failure with a bare 500 and logs it", async () => {
    const response = await checked.request("GET", `/v1/integrations/forge/codehost/${ids.managedIntegration}/repos`);
    expect(response.status).toBe(500);
    expect(response.text).not.toContain("exploded");
    expect(response.text).not.toContain("/srv/internal");
    expect(checked.logs.some((line) => line.includes("codehost exploded"))).toBe(true);
  });

  it("checks every documented response of the contract", () => {
    const check = responseChecker();
    expect(check(operation("listOAuthProviders"), 200, [])).toEqual([]);
    expect(check(operation("listOAuthProviders"), 200, [{ id: "x" }]).length).toBeGreaterThan(0);
    expect(check(operation("createDeployment"), 418, {})).toEqual([
      "status 418 is not documented for createDeployment",
    ]);
    expect(
      check(operation("listDeployments"), 422, {
        type: "urn:deployment-service:problem:validation",
        title: "t",
        status: 422,
        detail: "d",
      }),
    ).toEqual([]);
  });
});
