/** Tests of the spec-only implementation: each knob changes what its doc comment says, and the stated rules hold under every knob. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { variants } from "./catalog.js";
import { demoSeed } from "./demo-seed.js";
import { type Knobs, profileChoices } from "./knobs.js";
import { startVariantServer } from "./server.js";

type Answer = { status: number; type: string; retryAfter: string | null; body: unknown };

/** Sends a request with Acme's key in the scheme the knobs choose. */
function client(url: string, knobs: Knobs) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const key: Record<string, string> =
      knobs.auth === "bearer" ? { Authorization: `Bearer ${demo.acme.apiKey}` } : { "X-Api-Key": demo.acme.apiKey };
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...key, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      retryAfter: res.headers.get("retry-after"),
      body: parsed,
    };
  };
}

const provider = (id: string) => ({
  provider_id: id,
  name: id,
  client_id: "c",
  auth_url: "https://a.example/auth",
  token_url: "https://a.example/token",
});
const template = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  source: "internal_template",
  source_config: {},
  source_revision_config: {},
  secrets: [{ name: "S", value: "v" }],
  ...extra,
});

describe("spec-only implementation: the knobs", () => {
  const cases: { name: string; knobs: Partial<Knobs>; run(send: ReturnType<typeof client>): Promise<void> }[] = [
    {
      name: "create statuses 201 and 200",
      knobs: { providerCreateStatus: 201, deploymentCreateStatus: 200 },
      async run(send) {
        expect((await send("POST", "/v2/auth/providers", provider("p1"))).status).toBe(201);
        expect((await send("POST", "/v2/deployments", template("d1"))).status).toBe(200);
      },
    },
    {
      name: "400 for every client error, with {error} bodies",
      knobs: { clientErrorStatus: "400", errorBody: "plain-json", mediaType: "client-error" },
      async run(send) {
        const a = await send("GET", "/v2/deployments?limit=0");
        expect(a).toMatchObject({ status: 400, type: "application/json" });
        expect(a.body).toEqual({ error: expect.any(String) });
        expect((await send("POST", "/v2/deployments", "x", { "Content-Type": "text/plain" })).status).toBe(400);
      },
    },
    {
      name: "text error bodies",
      knobs: { errorBody: "text" },
      async run(send) {
        expect((await send("GET", "/v2/deployments?offset=-1")).type).toMatch(/^text\/plain/);
      },
    },
    {
      name: "duplicates accepted",
      knobs: { duplicates: "accept" },
      async run(send) {
        await send("POST", "/v2/auth/providers", provider("dup"));
        expect((await send("POST", "/v2/auth/providers", provider("dup"))).status).toBe(200);
      },
    },
    {
      name: "duplicates refused with 409 by the profile's choice",
      knobs: {},
      async run(send) {
        await send("POST", "/v2/deployments", template("same"));
        expect((await send("POST", "/v2/deployments", template("same"))).status).toBe(409);
      },
    },
    {
      name: "unknown fields refused",
      knobs: { unknownFields: "refuse" },
      async run(send) {
        expect((await send("POST", "/v2/deployments", template("u", { color: "red" }))).status).toBe(422);
      },
    },
    {
      name: "deployments by name and the returned offset is the total past the end",
      knobs: { deploymentOrder: "name", nextOffset: "total" },
      async run(send) {
        for (const n of ["b", "c", "a"]) await send("POST", "/v2/deployments", template(n));
        const page = (await send("GET", "/v2/deployments")).body as { resources: { name: string }[]; offset: number };
        expect(page.resources.map((r) => r.name)).toEqual(["a", "b", "c"]);
        expect(((await send("GET", "/v2/deployments?offset=10")).body as { offset: number }).offset).toBe(3);
      },
    },
    {
      name: "the returned offset strides by limit",
      knobs: { nextOffset: "stride" },
      async run(send) {
        await send("POST", "/v2/deployments", template("one"));
        expect(((await send("GET", "/v2/deployments?limit=5")).body as { offset: number }).offset).toBe(5);
      },
    },
    {
      name: "bearer keys; X-Api-Key is not a key",
      knobs: { auth: "bearer" },
      async run(send) {
        expect((await send("GET", "/v2/auth/providers")).status).toBe(200);
        const plain = await fetch(`${urlOf(send)}/v2/auth/providers`, { headers: { "X-Api-Key": demo.acme.apiKey } });
        expect(plain.status).toBe(401);
      },
    },
    {
      name: "no tenant header: X-Tenant-Id is ignored",
      knobs: { tenantHeader: false },
      async run(send) {
        const created = await send("POST", "/v2/deployments", template("t"), {
          "X-Tenant-Id": demo.acme.stagingTenantId,
        });
        expect((created.body as { tenant_id: string }).tenant_id).toBe(demo.acme.productionTenantId);
      },
    },
    {
      name: "secrets as sent, READY at once, image_version null, config fields as null",
      knobs: { secrets: "as-sent", initialStatus: "READY", imageVersion: "null", configNulls: true },
      async run(send) {
        const body = (await send("POST", "/v2/deployments", template("s"))).body as Record<string, unknown>;
        expect(body).toMatchObject({ secrets: [{ name: "S", value: "v" }], status: "READY", image_version: null });
        expect(body.source_config).toMatchObject({ repo_url: null, resource_spec: null });
      },
    },
    {
      name: "sparse records leave out optional fields at their default",
      knobs: { optionalFields: "absent", imageVersion: "absent" },
      async run(send) {
        const p = (await send("POST", "/v2/auth/providers", provider("sp"))).body as Record<string, unknown>;
        expect(p).not.toHaveProperty("is_dynamic_client");
        const d = (await send("POST", "/v2/deployments", template("sp"))).body as Record<string, unknown>;
        expect(d).not.toHaveProperty("image_version");
      },
    },
    {
      name: "a tenant the key does not reach is 404",
      knobs: { otherTenant: 404 },
      async run(send) {
        const other = demo.globex.productionTenantId;
        expect((await send("GET", "/v2/deployments", undefined, { "X-Tenant-Id": other })).status).toBe(404);
      },
    },
    {
      name: "case-sensitive name_contains; a malformed id matches nothing",
      knobs: { nameContains: "sensitive", badFilterValue: "nothing" },
      async run(send) {
        await send("POST", "/v2/deployments", template("Mixed"));
        const count = async (q: string) =>
          ((await send("GET", `/v2/deployments?${q}`)).body as { resources: unknown[] }).resources.length;
        expect(await count("name_contains=mixed")).toBe(0);
        expect(await count("name_contains=Mix")).toBe(1);
        expect(await count("deployment_ids=nope")).toBe(0);
      },
    },
    {
      name: "a method a path does not serve is 404",
      knobs: { unknownMethod: 404 },
      async run(send) {
        expect((await send("DELETE", "/v2/deployments")).status).toBe(404);
      },
    },
    {
      name: "a rate limit: past 1 request a second a key gets 429",
      knobs: { rateLimit: 1 },
      async run(send) {
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await send("GET", "/v2/auth/providers"));
        // five requests fall in fewer than five seconds, so one second holds two of them: at least one is over the limit
        expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(1);
        expect(answers[0]?.status).toBe(200);
      },
    },
    {
      name: "a bare rate limit: the 429 carries no Retry-After",
      knobs: { rateLimit: 1, rateLimitAnswer: "bare" },
      async run(send) {
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await send("GET", "/v2/auth/providers"));
        const limited = answers.find((a) => a.status === 429);
        expect(limited?.retryAfter).toBeNull();
      },
    },
    {
      name: "success answers under a vendor JSON media type",
      knobs: { successType: "vendor" },
      async run(send) {
        expect((await send("GET", "/v2/deployments")).type).toBe("application/vnd.deployments.v2+json");
      },
    },
    {
      name: "operation 4 at a path of its own, not the profile's",
      knobs: { managedPath: "own" },
      async run(send) {
        const id = demo.acme.managedIntegrationId;
        expect((await send("GET", `/v1/managed-integrations/${id}/repositories`)).status).toBe(200);
        expect((await send("GET", `/v1/integrations/forge/codehost/${id}/repos`)).status).toBe(404);
      },
    },
    {
      name: "image_version and repo_commit_sha filled in once READY",
      knobs: { lateFields: "on-ready", readyAfterMs: 0 },
      async run(send) {
        const created = (await send("POST", "/v2/deployments", template("late"))).body as Record<string, unknown>;
        expect(created.image_version).toBeNull();
        const listed = (await send("GET", `/v2/deployments?deployment_ids=${String(created.id)}`)).body as {
          resources: Record<string, { repo_commit_sha?: unknown } | unknown>[];
        };
        const record = listed.resources[0]!;
        expect(record).toMatchObject({ status: "READY", image_version: expect.any(String) });
        expect((record.source_revision_config as { repo_commit_sha: unknown }).repo_commit_sha).toMatch(
          /^[0-9a-f]{40}$/,
        );
      },
    },
  ];
  const urls = new WeakMap<ReturnType<typeof client>, string>();
  const urlOf = (send: ReturnType<typeof client>) => urls.get(send) as string;
  for (const c of cases)
    it(c.name, async () => {
      const knobs = { ...profileChoices, ...c.knobs };
      const server = await startVariantServer(knobs, demoSeed());
      try {
        const send = client(server.url, knobs);
        urls.set(send, server.url);
        await c.run(send);
      } finally {
        await server.close();
      }
    });
});

describe("spec-only implementation: stated rules under every variant", () => {
  const servers: { id: string; knobs: Knobs; url: string; close(): Promise<void> }[] = [];
  beforeAll(async () => {
    for (const v of variants) {
      const knobs = { ...profileChoices, ...v.knobs };
      servers.push({ id: v.id, knobs, ...(await startVariantServer(knobs, demoSeed())) });
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  it("refuses limit 0 and 101, a missing required field and an unavailable source, and never returns client_secret", async () => {
    for (const s of servers) {
      const send = client(s.url, s.knobs);
      for (const q of ["limit=0", "limit=101", "offset=-1"])
        expect((await send("GET", `/v2/deployments?${q}`)).status, `${s.id} ${q}`).toBeGreaterThanOrEqual(400);
      expect((await send("POST", "/v2/deployments", { name: "x" })).status, s.id).toBeGreaterThanOrEqual(400);
      const external = template(`ext-${s.id}`, { source: "external_container" });
      expect((await send("POST", "/v2/deployments", external)).status, s.id).toBeGreaterThanOrEqual(400);
      const created = await send("POST", "/v2/auth/providers", { ...provider(`p-${s.id}`), client_secret: "hush" });
      expect(JSON.stringify(created.body), s.id).not.toContain("hush");
    }
  });
});
