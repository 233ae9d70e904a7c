/** Judging answers against the contract: documented status, media type, body schema. */
import { describe, expect, it } from "vitest";
import { answerProblems } from "./answers.js";

const problem = {
  type: "urn:deployment-service:problem:unauthenticated",
  title: "Unauthenticated",
  status: 401,
  detail: "Send an API key in X-Api-Key.",
};

describe("answerProblems", () => {
  const cases: Array<{
    given: { id: string; status: number; contentType?: string; body: unknown; anySuccess?: boolean };
    want: RegExp | null;
  }> = [
    {
      given: {
        id: "listDeployments",
        status: 200,
        contentType: "application/json",
        body: { resources: [], offset: 0 },
      },
      want: null,
    },
    {
      given: {
        id: "listDeployments",
        status: 200,
        contentType: "application/json; charset=utf-8",
        body: { resources: [], offset: 0 },
      },
      want: null,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "text/plain", body: { resources: [], offset: 0 } },
      want: /Content-Type 'text\/plain'/,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "application/json", body: { resources: [] } },
      want: /offset/,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "application/json", body: undefined },
      want: /not JSON/,
    },
    {
      given: { id: "listDeployments", status: 418, contentType: "application/json", body: {} },
      want: /status 418 is not a documented answer/,
    },
    {
      given: { id: "createDeployment", status: 200, contentType: "application/json", body: {} },
      want: /status 200 is not a documented/,
    },
    {
      given: { id: "createDeployment", status: 200, contentType: "application/json", body: {}, anySuccess: true },
      want: /must have required property/,
    },
    {
      given: { id: "listOAuthProviders", status: 401, contentType: "application/problem+json", body: problem },
      want: null,
    },
    {
      given: { id: "listOAuthProviders", status: 401, contentType: "application/json", body: problem },
      want: /application\/problem\+json/,
    },
  ];
  it.each(cases)("$given.id $given.status $given.contentType", ({ given, want }) => {
    const problems = answerProblems(given.id, given, { anySuccess: given.anySuccess ?? false });
    if (want === null) expect(problems).toEqual([]);
    else expect(problems.join("\n")).toMatch(want);
  });
});

describe("answerProblems at each level of the contract (D-220)", () => {
  const record = (resourceSpec: unknown, secrets: unknown[] = []) => ({
    resources: [
      {
        name: "legal",
        source: "external_container",
        source_config: { resource_spec: resourceSpec },
        source_revision_config: { image_uri: "registry.example/app:1" },
        secrets,
        id: "01a21495-30bd-7484-a7f5-30706d63f448",
        tenant_id: "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f",
        created_at: "2026-11-25T21:20:51Z",
        updated_at: "2026-11-25T21:20:51Z",
        status: "READY",
        latest_revision_id: null,
        active_revision_id: null,
      },
    ],
    offset: 1,
  });
  const cases = [
    { what: "max_scale 101 (D-133)", body: record({ max_scale: 101 }), full: /max_scale must be <= 100/ },
    { what: "a number label (D-01)", body: record({ labels: { team: 1 } }), full: /labels\/team must be string/ },
    { what: "a sidecar without image (D-65)", body: record({ sidecars: [{ name: "s" }] }), full: /image/ },
    { what: "an empty secret name (D-31)", body: record(null, [{ name: "", value: "x" }]), full: /fewer than 1/ },
    { what: "a secret without value (D-69)", body: record(null, [{ name: "A" }]), full: /value/ },
    { what: "max_scale 3e9 (int32, D-70)", body: record({ max_scale: 3e9 }), full: /max_scale/ },
  ];
  it.each(cases)("$what breaks the full contract only", ({ body, full }) => {
    const answer = { status: 200, contentType: "application/json", body };
    expect(answerProblems("listDeployments", answer).join("\n")).toMatch(full);
    expect(answerProblems("listDeployments", answer, { level: "interface" })).toEqual([]);
  });
  it("judges what the interface spec states at the interface level too", () => {
    const body = record({ max_scale: "many" });
    const answer = { status: 200, contentType: "application/json", body: { ...body, offset: "1" } };
    const problems = answerProblems("listDeployments", answer, { level: "interface" }).join("\n");
    expect(problems).toMatch(/offset must be integer/);
    expect(problems).toMatch(/max_scale must be integer/);
  });
});

describe("the decision a breach of the full contract cites (D-220)", () => {
  it.each([
    { resourceSpec: { max_scale: 101 }, cites: "max_scale must be <= 100 (D-65, D-133)" },
    { resourceSpec: { labels: { team: 1 } }, cites: "labels/team must be string (D-01)" },
    { resourceSpec: { sidecars: [{ name: "s" }] }, cites: "sidecars/0 must have required property 'image' (D-65)" },
    { resourceSpec: { sidecars: [{ name: "s", image: "i", command: "x" }] }, cites: "command must be array" },
  ])("$cites", ({ resourceSpec, cites }) => {
    const body = {
      resources: [{ name: "n", source: "external_container", source_config: { resource_spec: resourceSpec } }],
      offset: 1,
    };
    const problems = answerProblems("listDeployments", { status: 200, contentType: "application/json", body });
    const line = problems.find((problem) => problem.includes(cites.split(" (")[0]!.split(" ")[0]!));
    expect(line).toMatch(new RegExp(`${cites.replace(/[()]/g, "\\$&")}$`));
  });
});

describe("answerProblems stops at the first error of a large answer (D-460)", () => {
  const cases: { name: string; items: number; want: (count: number) => boolean }[] = [
    { name: "a small answer is described by several errors", items: 3, want: (count) => count > 1 },
    { name: "an answer of 30,000 values by its first", items: 30_000, want: (count) => count === 1 },
  ];
  for (const c of cases)
    it(c.name, () => {
      const body = Array.from({ length: c.items }, () => ({}));
      const problems = answerProblems("listOAuthProviders", { status: 200, contentType: "application/json", body });
      expect(problems.length > 0 && c.want(problems.length)).toBe(true);
    });
});
