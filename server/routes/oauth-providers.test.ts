/** Tests of operations 1 and 2 over HTTP: 200 with defaults, 409 per organization, URL and enum rules (422), oldest first, organization isolation. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ids, providerBody } from "../testing/fixtures.js";
import { globexKey, startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("createOAuthProvider", () => {
  it("answers 200 with the stored provider and its defaults, without the client secret", async () => {
    const response = await server.request("POST", "/v2/auth/providers", {
      body: providerBody("defaults", { client_secret: "s3cr3t" }),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      organization_id: "0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40",
      provider_id: "defaults",
      uses_pkce: false,
      code_challenge_method: "S256",
      token_endpoint_auth_method: "client_secret_post",
      provider_type: null,
      mcp_server_url: null,
      is_dynamic_client: false,
    });
    expect(response.body.client_secret).toBeUndefined();
    expect(response.text).not.toContain("s3cr3t");
    expect(response.body.created_at).toBe(response.body.updated_at);
  });

  it("keeps the optional fields it is given and ignores response-only ones", async () => {
    const body = providerBody("full", {
      uses_pkce: true,
      code_challenge_method: "plain",
      provider_type: "slack",
      token_endpoint_auth_method: "none",
      mcp_server_url: "https://mcp.example",
      is_dynamic_client: true,
      organization_id: ids.globexProduction,
    });
    const response = await server.request("POST", "/v2/auth/providers", { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      uses_pkce: true,
      code_challenge_method: "plain",
      provider_type: "slack",
      token_endpoint_auth_method: "none",
      mcp_server_url: null,
      is_dynamic_client: false,
    });
    expect(response.body.organization_id).toBe("0b6c2f1e-7a35-4b6e-9d2a-6f0c3e1a2b40");
  });

  it("rejects a provider_id already used in the organization (409), but not in another organization", async () => {
    expect((await server.request("POST", "/v2/auth/providers", { body: providerBody("twice") })).status).toBe(200);
    const again = await server.request("POST", "/v2/auth/providers", { body: providerBody("twice") });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe("urn:deployment-service:problem:conflict");
    // Another tenant of the same organization: still the same organization.
    expect(
      (await server.request("POST", "/v2/auth/providers", { body: providerBody("twice"), tenant: ids.acmeStaging }))
        .status,
    ).toBe(409);
    expect(
      (await server.request("POST", "/v2/auth/providers", { body: providerBody("twice"), key: globexKey })).status,
    ).toBe(200);
  });

  const invalid: Array<{ given: string; change: Record<string, unknown>; pointer: string }> = [
    { given: "http to a public host", change: { auth_url: "http://auth.example/authorize" }, pointer: "/auth_url" },
    { given: "a relative URL", change: { token_url: "/token" }, pointer: "/token_url" },
    { given: "an ftp URL", change: { token_url: "ftp://auth.example/token" }, pointer: "/token_url" },
    { given: "credentials in the URL", change: { auth_url: "https://user:pw@auth.example/a" }, pointer: "/auth_url" },
    { given: "a fragment", change: { auth_url: "https://auth.example/a#x" }, pointer: "/auth_url" },
    {
      given: "a URL longer than 2048",
      change: { auth_url: `https://auth.example/${"a".repeat(2048)}` },
      pointer: "/auth_url",
    },
    {
      given: "code_challenge_method S512",
      change: { code_challenge_method: "S512" },
      pointer: "/code_challenge_method",
    },
    { given: "an unknown provider_type", change: { provider_type: "github" }, pointer: "/provider_type" },
    {
      given: "an unknown token_endpoint_auth_method",
      change: { token_endpoint_auth_method: "private_key_jwt" },
      pointer: "/token_endpoint_auth_method",
    },
    { given: "uses_pkce as a string", change: { uses_pkce: "true" }, pointer: "/uses_pkce" },
    { given: "an empty provider_id", change: { provider_id: "" }, pointer: "/provider_id" },
    { given: "a missing client_id", change: { client_id: undefined }, pointer: "/client_id" },
    { given: "a client_secret that is a number", change: { client_secret: 5 }, pointer: "/client_secret" },
  ];
  for (const { given, change, pointer } of invalid) {
    it(`422 for ${given}`, async () => {
      const response = await server.request("POST", "/v2/auth/providers", {
        body: providerBody(`bad-${given}`, change),
      });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    });
  }

  const valid = [
    "http://localhost:8080/a",
    "http://127.0.0.1/a",
    "http://[::1]:9000/a",
    "https://auth.example:8443/a?x=1",
  ];
  for (const url of valid) {
    it(`accepts ${url}`, async () => {
      const response = await server.request("POST", "/v2/auth/providers", {
        body: providerBody(`ok-${url}`, { auth_url: url }),
      });
      expect(response.status).toBe(200);
      expect(response.body.auth_url).toBe(url);
    });
  }
});

describe("listOAuthProviders", () => {
  it("lists the organization's providers oldest first, in every tenant of the organization, and nothing of another", async () => {
    const fresh = await startTestServer();
    try {
      for (const id of ["first", "second", "third"])
        await fresh.request("POST", "/v2/auth/providers", { body: providerBody(id) });
      await fresh.request("POST", "/v2/auth/providers", { body: providerBody("globex-only"), key: globexKey });
      const acme = await fresh.request("GET", "/v2/auth/providers");
      expect(acme.status).toBe(200);
      expect(acme.body.map((p: { provider_id: string }) => p.provider_id)).toEqual(["first", "second", "third"]);
      const staging = await fresh.request("GET", "/v2/auth/providers", { tenant: ids.acmeStaging });
      expect(staging.body).toEqual(acme.body);
      const globex = await fresh.request("GET", "/v2/auth/providers", { key: globexKey });
      expect(globex.body.map((p: { provider_id: string }) => p.provider_id)).toEqual(["globex-only"]);
    } finally {
      await fresh.close();
    }
  });
});
