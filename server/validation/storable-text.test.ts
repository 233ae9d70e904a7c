/** D-111: a NUL or a lone surrogate in any string of a body or a query parameter is 422 naming it, on every store, and nothing is stored; D-112: the provider cap over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstorableTextPointers } from "../../contract/index.js";
import { bodyFor, providerBody } from "../testing/fixtures.js";
import { globexKey, startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("unstorableTextPointers", () => {
  const cases = [
    { given: { a: "plain", b: ["ok", "😀"] }, want: [] },
    { given: { a: "a\u0000b" }, want: ["/a"] },
    { given: { a: ["x", "a\ud800b"] }, want: ["/a/1"] },
    { given: { "a/b": { c: "\udc00" } }, want: ["/a~1b/c"] },
    { given: { "k\u0000": "v" }, want: ["/k\u0000"] },
    { given: "\ud83d", want: [""] },
  ];
  for (const { given, want } of cases) {
    it(`${JSON.stringify(given)} -> ${JSON.stringify(want)}`, () => {
      expect(unstorableTextPointers(given)).toEqual(want);
    });
  }
});

describe("query parameters", () => {
  const cases = [
    { given: "name_contains=aaa%00", want: "name_contains" },
    { given: "name_contains=%00", want: "name_contains" },
    { given: "image_version=a%00b", want: "image_version" },
  ];
  for (const { given, want } of cases) {
    it(`${given} -> 422 naming ${want}`, async () => {
      const response = await server.request("GET", `/v2/deployments?${given}`);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ parameter: want, detail: expect.stringContaining("NUL") }]);
    });
  }
});

describe("bodies", () => {
  const cases = [
    {
      given: "provider name with NUL",
      path: "/v2/auth/providers",
      body: providerBody("nul-a", { name: "a\u0000b" }),
      want: "/name",
    },
    {
      given: "provider_id with NUL",
      path: "/v2/auth/providers",
      body: providerBody("nul\u0000b", { name: "n" }),
      want: "/provider_id",
    },
    {
      given: "client_id with NUL",
      path: "/v2/auth/providers",
      body: providerBody("nul-c", { client_id: "\u0000" }),
      want: "/client_id",
    },
    {
      given: "provider name with a lone surrogate",
      path: "/v2/auth/providers",
      body: providerBody("lone-a", { name: "a\ud800b" }),
      want: "/name",
    },
    {
      given: "secret value with a lone surrogate",
      path: "/v2/deployments",
      body: { ...bodyFor("internal_template", "lone-secret"), secrets: [{ name: "S", value: "x\udfffy" }] },
      want: "/secrets/0/value",
    },
  ];
  for (const { given, path, body, want } of cases) {
    it(`${given} -> 422 at ${want}, nothing stored`, async () => {
      const response = await server.request("POST", path, { body });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ pointer: want, detail: expect.stringContaining("lone surrogate") }]);
    });
  }
  it("stores nothing of the refused bodies", async () => {
    const providers = await server.request("GET", "/v2/auth/providers");
    expect(providers.text).not.toMatch(/nul-|lone-/);
    const deployments = await server.request("GET", "/v2/deployments?name_contains=lone-secret");
    expect(deployments.body.resources).toEqual([]);
  });
  it("keeps a well-formed astral character as sent", async () => {
    const created = await server.request("POST", "/v2/auth/providers", {
      body: providerBody("astral", { name: "rocket 🚀" }),
    });
    expect(created.status).toBe(200);
    const listed = await server.request("GET", "/v2/auth/providers");
    expect(listed.body.find((p: { provider_id: string }) => p.provider_id === "astral").name).toBe("rocket 🚀");
  });
});

describe("the OAuth providers of an organization (D-112)", () => {
  it("takes 500, refuses the next with 409 conflict, and lists the 500", { timeout: 120_000 }, async () => {
    // 20 at a time: the stores count and insert one at a time anyway (D-112).
    for (let start = 0; start < 500; start += 20) {
      const batch = Array.from({ length: 20 }, (_, i) =>
        server.request("POST", "/v2/auth/providers", { key: globexKey, body: providerBody(`cap-${start + i}`) }),
      );
      for (const created of await Promise.all(batch)) expect(created.status).toBe(200);
    }
    const refused = await server.request("POST", "/v2/auth/providers", {
      key: globexKey,
      body: providerBody("cap-500"),
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: "urn:deployment-service:problem:conflict", status: 409 });
    expect(refused.body.detail).toContain("500 OAuth providers");
    expect((await server.request("GET", "/v2/auth/providers", { key: globexKey })).body).toHaveLength(500);
  });
});
