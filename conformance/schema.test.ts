/** Tests of the answer validator against generated/openapi.json. */
import { describe, expect, it } from "vitest";
import { validateAnswer, validateSuccessBody } from "./schema.js";

const provider = {
  id: "p1",
  organization_id: "o1",
  provider_id: "x",
  name: "X",
  client_id: "c",
  auth_url: "https://a.example/auth",
  token_url: "https://a.example/token",
  uses_pkce: false,
  code_challenge_method: "S256",
  created_at: "2026-11-01T00:00:00Z",
  updated_at: "2026-11-01T00:00:00Z",
};

describe("validateAnswer", () => {
  const cases: { name: string; op: string; status: number; type: string; body: unknown; wantProblems: boolean }[] = [
    { name: "valid provider list", op: "listOAuthProviders", status: 200, type: "application/json", body: [provider], wantProblems: false },
    { name: "missing required field", op: "listOAuthProviders", status: 200, type: "application/json", body: [{ ...provider, id: undefined }], wantProblems: true },
    { name: "wrong type", op: "listOAuthProviders", status: 200, type: "application/json", body: [{ ...provider, uses_pkce: "no" }], wantProblems: true },
    { name: "undocumented status", op: "createDeployment", status: 200, type: "application/json", body: {}, wantProblems: true },
    { name: "wrong media type", op: "listOAuthProviders", status: 200, type: "text/plain", body: [provider], wantProblems: true },
    { name: "valid empty page", op: "listDeployments", status: 200, type: "application/json", body: { resources: [], offset: 0 }, wantProblems: false },
    { name: "negative offset", op: "listDeployments", status: 200, type: "application/json", body: { resources: [], offset: -1 }, wantProblems: true },
    {
      name: "problem with unknown type",
      op: "listDeployments",
      status: 422,
      type: "application/problem+json",
      body: { type: "about:blank", title: "x", status: 422, detail: "d" },
      wantProblems: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(validateAnswer(c.op, c.status, c.type, c.body).length > 0).toBe(c.wantProblems);
    });
  }
});

describe("validateSuccessBody", () => {
  it("judges a success body against the documented success answer whatever its 2xx status", () => {
    expect(validateSuccessBody("createOAuthProvider", "application/json", provider)).toEqual([]);
    expect(validateSuccessBody("createOAuthProvider", "application/json", { ...provider, uses_pkce: undefined }).length).toBeGreaterThan(0);
    expect(validateSuccessBody("listOAuthProviders", "text/html", [provider]).length).toBeGreaterThan(0);
  });
});
