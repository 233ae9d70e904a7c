/** `proxy --record` (D-323): the upstream's successful answers become a seed in the state format, secret values left out. */
import { describe, expect, it } from "vitest";
import { mockStateFormat, parseMockState } from "./engine/mock-state.js";
import { SeedRecorder } from "./seed-recorder.js";

const deployment = (n: number, secret = "hidden") => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  tenant_id: "t",
  name: `d${n}`,
  source: "internal_container",
  source_config: {},
  source_revision_config: { image_uri: "registry.example/a:1" },
  secrets: [{ name: "TOKEN", value: secret }],
  created_at: `2026-01-01T00:00:0${n}.000001Z`,
  updated_at: `2026-01-01T00:00:0${n}.000001Z`,
  status: "READY",
  latest_revision_id: null,
  active_revision_id: null,
  secret_references: null,
  image_version: null,
});
const provider = {
  id: "p1",
  organization_id: "o",
  provider_id: "github",
  name: "GitHub",
  client_id: "c",
  auth_url: "https://a.example",
  token_url: "https://t.example",
  uses_pkce: true,
  code_challenge_method: "S256",
  created_at: "2026-01-01T00:00:00.000000Z",
  updated_at: "2026-01-01T00:00:00.000000Z",
};
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("SeedRecorder", () => {
  it.each([
    {
      name: "list pages and a create, newest first, the latest answer per id",
      exchanges: [
        ["GET", "/v2/deployments?limit=1", 200, json({ resources: [deployment(2)], offset: 1 })],
        ["GET", "/v2/deployments?limit=1&offset=1", 200, json({ resources: [deployment(1)], offset: 2 })],
        ["POST", "/v2/deployments", 201, json(deployment(3))],
        ["GET", "/v2/deployments", 200, json({ resources: [deployment(3), deployment(2)], offset: 2 })],
      ],
      ids: [3, 2, 1],
      providers: 0,
      repositories: [],
    },
    {
      name: "failures and unknown paths are left out",
      exchanges: [
        ["POST", "/v2/deployments", 422, json({ status: 422 })],
        ["GET", "/healthz", 200, json({ status: "ok" })],
        ["GET", "/v2/auth/providers", 200, json([provider])],
        ["GET", "/v1/integrations/codehost/i1/repos", 200, json([{ name: "r" }])],
      ],
      ids: [],
      providers: 1,
      repositories: ["i1"],
    },
  ] as const)("$name", ({ exchanges, ids, providers, repositories }) => {
    const recorder = new SeedRecorder();
    for (const [method, target, status, body] of exchanges) recorder.observe(method, target, status, body);
    const state = parseMockState(JSON.parse(JSON.stringify(recorder.state())));
    expect(state.format).toBe(mockStateFormat);
    expect(state.deployments.map((d) => d.name)).toEqual(ids.map((n) => `d${n}`));
    expect(state.oauth_providers).toHaveLength(providers);
    expect(Object.keys(state.repositories ?? {})).toEqual(repositories);
    expect(JSON.stringify(state)).not.toContain("hidden");
  });

  it("keeps no field the contract marks secret and no credential the answer echoed (D-398)", () => {
    const recorder = new SeedRecorder();
    const leaky = { ...provider, name: "for dk_echoed_key_1", client_secret: "upstream-leak" };
    recorder.observe("GET", "/v2/auth/providers", 200, json([leaky]), ["dk_echoed_key_1"]);
    const text = JSON.stringify(recorder.state());
    expect(text).not.toMatch(/upstream-leak|client_secret|dk_echoed_key_1/);
    expect(recorder.state().oauth_providers[0]?.name).toBe("for [REDACTED]");
  });
});
