/** A session's state and clock (D-320, D-321): seeded in any status, read, replaced and moved forward by its own key only (D-396), within what the sandbox can answer from (D-395). */
import { describe, expect, it } from "vitest";
import { demo, operation, requestExamples } from "../../../contract/index.js";
import { bodyFor } from "../../../server/testing/fixtures.js";
import { createMemorySandbox, type MemorySandbox } from "./memory-sandbox.js";
import { type MockState, microsOf, mockStateFormat, type StateDeployment } from "./mock-state.js";

const origin = "http://sandbox.test";
const statuses = ["READY", "AWAITING_DATABASE", "UNUSED", "AWAITING_DELETE", "UNKNOWN"] as const;

/** What every seeded deployment of this test shares. */
const common = { source: "internal_container", source_config: {}, secret_references: null, image_version: null };

/** A deployment of a seed, the n-th made a second after the one before. */
function seeded(n: number, status: StateDeployment["status"]): StateDeployment {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const revision = `10000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return {
    ...common,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    tenant_id: "00000000-0000-4000-8000-000000000000",
    name: `seeded-${n}`,
    source_revision_config: { image_uri: `registry.example/acme/agent:${n}` },
    secrets: [{ name: "TOKEN" }],
    status,
    created_at: at,
    updated_at: at,
    latest_revision_id: revision,
    active_revision_id: status === "READY" ? revision : null,
  } as StateDeployment;
}

/** A seed of `count` deployments, newest first, cycling through every status. */
function seed(count: number): MockState {
  const deployments = Array.from({ length: count }, (_, i) => seeded(i + 1, statuses[i % statuses.length]!)).reverse();
  return { format: mockStateFormat, deployments, oauth_providers: [] };
}

/** A request to the sandbox as `key` in `session`. */
async function call(
  sandbox: MemorySandbox,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  session = "s",
  more: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...more, "X-Mock-Session": session, "Content-Type": "application/json" };
  if (key) headers["X-Api-Key"] = key;
  const response = await sandbox.handle(
    new Request(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The contract's example body of an OAuth provider create. */
const providerExample = requestExamples(operation("createOAuthProvider"))[0]!.value as { provider_id: string };

/** The owner's state after it created one provider of this provider_id, and that provider as the state holds it. */
async function stateWithProvider(sandbox: MemorySandbox, providerId: string) {
  await call(sandbox, "POST", "/v2/auth/providers", "owner", { ...providerExample, provider_id: providerId });
  const state = (await call(sandbox, "GET", "/__mock/state", "owner")).body as MockState;
  return { state, made: state.oauth_providers[0]! };
}

type Listed = { resources: { id: string; status: string; secrets: { name: string; value: string }[] }[] };

describe("a seeded session", () => {
  it("lists the seed newest first in the statuses it was seeded in, secrets masked", async () => {
    const sandbox = createMemorySandbox({ seed: seed(12), readyAfterMs: 3_600_000 });
    const { body } = await call(sandbox, "GET", "/v2/deployments?limit=100", "owner");
    const listed = (body as Listed).resources;
    expect(listed.map((d) => d.id)).toEqual(seed(12).deployments.map((d) => d.id));
    expect(listed.map((d) => d.status)).toEqual(seed(12).deployments.map((d) => d.status));
    expect(listed[0]!.secrets).toEqual([{ name: "TOKEN", value: expect.not.stringMatching(/^$/) }]);
  });

  it("turns a seeded AWAITING_DATABASE deployment READY when the clock passes the delay, not before", async () => {
    const sandbox = createMemorySandbox({ seed: seed(2), readyAfterMs: 60_000 });
    const statusOf = async () =>
      ((await call(sandbox, "GET", "/v2/deployments", "owner")).body as Listed).resources.map((d) => d.status);
    expect(await statusOf()).toEqual(["AWAITING_DATABASE", "READY"]);
    expect((await call(sandbox, "POST", "/__mock/clock", "owner", { advance_ms: 30_000 })).body).toEqual({
      clock_advanced_ms: 30_000,
    });
    expect(await statusOf()).toEqual(["AWAITING_DATABASE", "READY"]);
    await sandbox.advanceClock(30_001, "s");
    expect(await statusOf()).toEqual(["READY", "READY"]);
  });
});

describe("the session's store as a client reads it", () => {
  it("answers its health to GET and HEAD, and lists a tenant of the key nothing was made in as empty (D-77)", async () => {
    const sandbox = createMemorySandbox();
    const health = await sandbox.handle(new Request(`${origin}/healthz`));
    expect([health.status, await health.json()]).toEqual([200, { status: "ok", database: "ok" }]);
    // HEAD is GET without the body on every path, /healthz included (D-21, D-270)
    const head = await sandbox.handle(new Request(`${origin}/healthz`, { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const staging = { "X-Tenant-Id": demo.acme.stagingTenantId };
    const listed = await call(sandbox, "GET", "/v2/deployments", demo.acme.apiKey, undefined, "s", staging);
    expect([listed.status, listed.body]).toEqual([200, { resources: [], offset: 0 }]);
  });

  it("lists a state's providers of equal created_at by id, ascending (D-08)", async () => {
    const sandbox = createMemorySandbox();
    const { state, made } = await stateWithProvider(sandbox, "tie");
    const [a, b, c] = [1, 2, 3].map((n) => `30000000-0000-4000-8000-00000000000${n}`) as [string, string, string];
    // every order the state may give them in: a sort that misreads a tie passes some orders and not others
    for (const ids of [
      [a, b, c],
      [a, c, b],
      [b, a, c],
      [b, c, a],
      [c, a, b],
      [c, b, a],
    ]) {
      const tied = ids.map((id, n) => ({ ...made, id, provider_id: `tie-${n}`, updated_at: made.created_at }));
      const put = await call(sandbox, "PUT", "/__mock/state", "owner", { ...state, oauth_providers: tied });
      expect(put.status).toBe(204);
      const listed = (await call(sandbox, "GET", "/v2/auth/providers", "owner")).body as { id: string }[];
      expect(listed.map((p) => p.id)).toEqual([a, b, c]);
    }
  });

  it("makes a create after a state's deployment of a later created_at later still, so it lists first (D-08)", async () => {
    const sandbox = createMemorySandbox({ readyAfterMs: 3_600_000 });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const ahead = { ...seeded(1, "READY"), created_at: future, updated_at: future };
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", { ...seed(0), deployments: [ahead] })).status).toBe(
      204,
    );
    const made = (
      await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", "after-the-future"))
    ).body as {
      id: string;
      created_at: string;
    };
    expect(microsOf(made.created_at)).toBeGreaterThan(microsOf(future));
    const listed = ((await call(sandbox, "GET", "/v2/deployments", "owner")).body as Listed).resources;
    expect(listed.map((d) => d.id)).toEqual([made.id, ahead.id]);
  });

  it("holds exactly its cap of deployments, the demo tenants' included: the create past it is 503 (D-170)", async () => {
    const sandbox = createMemorySandbox({ maxDeploymentsPerSession: 12, readyAfterMs: 3_600_000 });
    const statuses: number[] = [];
    for (let n = 0; n < 13 && statuses.at(-1) !== 503; n++)
      statuses.push(
        (await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", `cap-${n}`))).status,
      );
    expect(statuses.at(-1)).toBe(503);
    const count = async (key: string, tenant?: string) =>
      (
        (
          await call(
            sandbox,
            "GET",
            "/v2/deployments?limit=100",
            key,
            undefined,
            "s",
            tenant ? { "X-Tenant-Id": tenant } : {},
          )
        ).body as Listed
      ).resources.length;
    // every session's store also holds the titled examples of Acme's production tenant (D-272): as many as Acme's
    // own session lists, since each session is seeded alike
    const held = [await count("owner"), await count(demo.acme.apiKey)];
    expect(held.reduce((sum, n) => sum + n, 0)).toBe(12);
  });

  it("refuses an organization's provider past its 500th 409, naming the limit, and creates nothing (D-112)", async () => {
    const sandbox = createMemorySandbox();
    const { state, made } = await stateWithProvider(sandbox, "first");
    const full = Array.from({ length: 500 }, (_, n) => ({
      ...made,
      id: `40000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      provider_id: `full-${n}`,
    }));
    const put = await call(sandbox, "PUT", "/__mock/state", "owner", { ...state, oauth_providers: full });
    expect(put.status).toBe(204);
    const refused = await call(sandbox, "POST", "/v2/auth/providers", "owner", {
      ...providerExample,
      provider_id: "one-more",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("500");
    const listed = (await call(sandbox, "GET", "/v2/auth/providers", "owner")).body as unknown[];
    expect(listed).toHaveLength(500);
  });
});

describe("snapshot and restore", () => {
  it("a restore after creates lists what the snapshot held, over the API and in-process", async () => {
    const sandbox = createMemorySandbox({ seed: seed(5), readyAfterMs: 3_600_000 });
    const list = async () => (await call(sandbox, "GET", "/v2/deployments?limit=100", "owner")).body as Listed;
    const before = await list();
    const snapshot = (await call(sandbox, "GET", "/__mock/state", "owner")).body as MockState;
    expect(snapshot.deployments).toHaveLength(5);
    for (const name of ["one", "two", "three"])
      expect(
        (await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", name))).status,
      ).toBe(201);
    expect((await list()).resources).toHaveLength(8);
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", snapshot)).status).toBe(204);
    expect(await list()).toEqual(before);
    await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", "four"));
    await sandbox.restore(snapshot, "s");
    expect(await list()).toEqual(before);
  });

  it("lists a state's providers oldest first whatever their order in the state (D-08)", async () => {
    const sandbox = createMemorySandbox();
    for (const suffix of ["older", "newer"])
      expect(
        (
          await call(sandbox, "POST", "/v2/auth/providers", "owner", {
            ...providerExample,
            provider_id: `order-${suffix}`,
          })
        ).status,
      ).toBe(200);
    const listed = async () =>
      ((await call(sandbox, "GET", "/v2/auth/providers", "owner")).body as { provider_id: string }[]).map(
        (p) => p.provider_id,
      );
    const before = await listed();
    expect(before).toEqual(["order-older", "order-newer"]);
    const state = (await call(sandbox, "GET", "/__mock/state", "owner")).body as MockState;
    const reversed = { ...state, oauth_providers: [...state.oauth_providers].reverse() };
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", reversed)).status).toBe(204);
    expect(await listed()).toEqual(before);
  });

  it("lists a state's deployments of equal created_at by id, descending, whatever their order in the state (D-08)", async () => {
    const sandbox = createMemorySandbox({ readyAfterMs: 3_600_000 });
    const at = seeded(1, "READY").created_at;
    const deployments = [3, 1, 2].map((n) => ({ ...seeded(n, "READY"), created_at: at, updated_at: at }));
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", { ...seed(0), deployments })).status).toBe(204);
    const listed = ((await call(sandbox, "GET", "/v2/deployments", "owner")).body as Listed).resources;
    expect(listed.map((d) => d.id)).toEqual([3, 2, 1].map((n) => seeded(n, "READY").id));
  });

  it("refuses a state repeating a provider_id (D-38) rather than keeping one of the two", async () => {
    const sandbox = createMemorySandbox();
    const { state, made } = await stateWithProvider(sandbox, "twice");
    const twice = { ...state, oauth_providers: [made, { ...made, id: crypto.randomUUID(), name: "other" }] };
    const put = await call(sandbox, "PUT", "/__mock/state", "owner", twice);
    expect(put.status).toBe(422);
    expect((put.body as { detail: string }).detail).toContain("/oauth_providers/1/provider_id");
  });

  it("a restore before the session exists is where the session starts", async () => {
    const sandbox = createMemorySandbox();
    await sandbox.restore(seed(3), "later");
    const { body } = await call(sandbox, "GET", "/v2/deployments", "anyone", undefined, "later");
    expect((body as Listed).resources.map((d) => d.id)).toEqual(seed(3).deployments.map((d) => d.id));
    await expect(sandbox.snapshot("never")).rejects.toThrow(/No mock session "never"/);
  });
});

describe("who may read, replace and move a session", () => {
  it.each([
    ["GET", "/__mock/state", "", undefined, 401],
    ["POST", "/__mock/clock", "", { advance_ms: 1 }, 401],
    ["POST", "/__mock/clock", "owner", { advance_ms: -1 }, 422],
    ["POST", "/__mock/clock", "owner", { advance: 1 }, 422],
    ["PUT", "/__mock/state", "owner", { format: "other" }, 422],
    ["PUT", "/__mock/state", "owner", { ...seed(1), deployments: [{ id: 1 }] }, 422],
    ["DELETE", "/__mock/state", "owner", undefined, 405],
    ["GET", "/__mock/clock", "owner", undefined, 405],
    ["GET", "/__mock/state", "owner", undefined, 200],
  ])("%s %s as %j answers %i", async (method, path, key, body, status) => {
    const sandbox = createMemorySandbox();
    await call(sandbox, "GET", "/v2/deployments", "owner");
    expect((await call(sandbox, method, path, key, body)).status).toBe(status);
  });

  it("refuses a state beyond the session's cap of deployments: 503 over the API, an error for a seed", async () => {
    const sandbox = createMemorySandbox({ maxDeploymentsPerSession: 3 });
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", seed(4))).status).toBe(503);
    expect(() => createMemorySandbox({ maxDeploymentsPerSession: 3, seed: seed(4) })).toThrow(
      /more than a session's 3/,
    );
  });

  it("counts a state's deployments against the cap: a full state leaves no room for a create, a smaller one leaves its room", async () => {
    const sandbox = createMemorySandbox({ maxDeploymentsPerSession: 8 });
    const put = async (count: number) => (await call(sandbox, "PUT", "/__mock/state", "owner", seed(count))).status;
    // the session's titled examples (D-272) hold part of the cap: the largest state it takes fills the rest
    let room = 8;
    while (room > 0 && (await put(room)) !== 204) room--;
    expect(room).toBeGreaterThan(1);
    expect(
      (await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", "one-more"))).status,
    ).toBe(503);
    expect(await put(room - 1)).toBe(204);
    expect(
      (await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", "last"))).status,
    ).toBe(201);
    expect(
      (await call(sandbox, "POST", "/v2/deployments", "owner", bodyFor("internal_container", "one-more"))).status,
    ).toBe(503);
  });

  it("refuses a state taking the id of a deployment in the key's other tenant, and both tenants keep what they had", async () => {
    // Acme's demo key reaches two tenants (D-77); a state replaces its default tenant's deployments only
    const sandbox = createMemorySandbox({ readyAfterMs: 3_600_000 });
    const acme = demo.acme.apiKey;
    const staging = { "X-Tenant-Id": demo.acme.stagingTenantId };
    const theirs = (
      await call(sandbox, "POST", "/v2/deployments", acme, bodyFor("internal_container", "staging-one"), "s", staging)
    ).body as {
      id: string;
    };
    expect((await call(sandbox, "PUT", "/__mock/state", acme, seed(2))).status).toBe(204);
    const list = async (headers: Record<string, string> = {}) =>
      ((await call(sandbox, "GET", "/v2/deployments?limit=100", acme, undefined, "s", headers)).body as Listed)
        .resources;
    const before = [await list(), await list(staging)];
    const clash = { ...seed(2), clock_advanced_ms: 60_000 };
    clash.deployments = [clash.deployments[0]!, { ...clash.deployments[1]!, id: theirs.id }];
    const put = await call(sandbox, "PUT", "/__mock/state", acme, clash);
    expect(put.status).toBe(422);
    expect((put.body as { detail: string }).detail).toContain("/deployments/1/id");
    expect([await list(), await list(staging)]).toEqual(before);
    // a refused state moves no clock (D-395)
    expect(((await call(sandbox, "GET", "/__mock/state", acme)).body as MockState).clock_advanced_ms).toBe(0);
  });

  it("a state refused for the session's cap leaves its clock where it was", async () => {
    const sandbox = createMemorySandbox({ maxDeploymentsPerSession: 3 });
    const put = await call(sandbox, "PUT", "/__mock/state", "owner", { ...seed(4), clock_advanced_ms: 60_000 });
    expect(put.status).toBe(503);
    expect(((await call(sandbox, "GET", "/__mock/state", "owner")).body as MockState).clock_advanced_ms).toBe(0);
  });

  it("names the wrong pointer of a state", async () => {
    const sandbox = createMemorySandbox();
    const bad = { ...seed(2), deployments: [seeded(1, "READY"), { ...seeded(2, "READY"), status: "GONE" }] };
    const { body } = await call(sandbox, "PUT", "/__mock/state", "owner", bad);
    expect((body as { detail: string }).detail).toContain("/deployments/1/status");
  });
});

describe("a state or a clock the sandbox could not answer from is refused (D-395)", () => {
  const far = (n: number) => ({ ...seeded(n, "READY"), created_at: "+100000-01-01T00:00:00Z" });
  it.each([
    ["a clock of 1e300 ms", { ...seed(1), clock_advanced_ms: 1e300 }, "/clock_advanced_ms"],
    ["a clock past 100 years", { ...seed(1), clock_advanced_ms: 2 * 8.64e15 }, "/clock_advanced_ms"],
    ["a far created_at", { ...seed(1), deployments: [far(1)] }, "/deployments/0/created_at"],
    [
      "a created_at past 2199",
      { ...seed(1), deployments: [{ ...seeded(1, "READY"), created_at: "2300-01-01T00:00:00Z" }] },
      "/deployments/0/created_at",
    ],
    [
      "a source_config the contract's answer cannot carry",
      {
        ...seed(2),
        deployments: [seeded(2, "READY"), { ...seeded(1, "READY"), source_config: { resource_spec: "big" } }],
      },
      "/deployments/1/source_config",
    ],
  ])("%s: 422 naming the pointer, and the session answers on", async (_name, state, pointer) => {
    const sandbox = createMemorySandbox();
    const put = await call(sandbox, "PUT", "/__mock/state", "owner", state);
    expect(put.status).toBe(422);
    expect((put.body as { detail: string }).detail).toContain(pointer);
    expect((await call(sandbox, "GET", "/v2/deployments", "owner")).status).toBe(200);
    expect(
      (
        await call(sandbox, "POST", "/v2/deployments", "owner", {
          name: "after",
          source: "internal_container",
          source_config: {},
          source_revision_config: { image_uri: "registry.example/a:1" },
          secrets: [],
        })
      ).status,
    ).toBe(201);
  });

  it("a seed or a saved state it could not answer from is refused when the sandbox is made, as a put would be", () => {
    const late = { ...seed(1), deployments: [{ ...seeded(1, "READY"), created_at: "2300-01-01T00:00:00Z" }] };
    expect(() => createMemorySandbox({ seed: late })).toThrow(/\/deployments\/0\/created_at/);
    const saved = [
      { session: "s", owner_sha256: "0".repeat(64), state: { ...seed(1), format: "other" } as unknown as MockState },
    ];
    expect(() => createMemorySandbox({ saved })).toThrow(/\/format/);
  });

  it("two clock moves of 8.64e15 ms: the second past the bound is 422, and lists still answer", async () => {
    const sandbox = createMemorySandbox();
    await call(sandbox, "GET", "/v2/deployments", "owner");
    expect((await call(sandbox, "POST", "/__mock/clock", "owner", { advance_ms: 8.64e12 })).status).toBe(422);
    expect((await call(sandbox, "POST", "/__mock/clock", "owner", { advance_ms: 3e12 })).status).toBe(200);
    expect((await call(sandbox, "POST", "/__mock/clock", "owner", { advance_ms: 3e12 })).status).toBe(422);
    expect((await call(sandbox, "GET", "/v2/deployments", "owner")).status).toBe(200);
  });

  it("a body over 1 MiB is 413, not 'not JSON'", async () => {
    const sandbox = createMemorySandbox();
    const big = { ...seed(1), padding: "x".repeat(1024 * 1024) };
    expect((await call(sandbox, "PUT", "/__mock/state", "owner", big)).status).toBe(413);
  });

  it("state puts count against the session's budget, and all sessions' bytes stay bounded (D-396)", async () => {
    const sandbox = createMemorySandbox({ maxBytesPerSession: 64 * 1024, maxBytesInAll: 256 * 1024 });
    const heavy = {
      ...seed(1),
      deployments: Array.from({ length: 40 }, (_, i) => ({
        ...seeded(i + 1, "READY"),
        name: `heavy-${"n".repeat(200)}-${i}`,
      })),
    };
    const size = JSON.stringify(heavy).length;
    expect(size).toBeLessThan(64 * 1024);
    // 36 made-up keys, 3 sessions each: the table sheds the heaviest key's oldest sessions while a key holds several,
    // then refuses puts with a 429 rather than drop another key's only session (D-470); the victim's stays
    await call(sandbox, "PUT", "/__mock/state", "victim", seed(2), "mine");
    const statuses = new Set<number>();
    for (let key = 0; key < 36; key++)
      for (let session = 0; session < 3; session++)
        statuses.add((await call(sandbox, "PUT", "/__mock/state", `made-up-${key}`, heavy, `s${session}`)).status);
    expect([...statuses].sort()).toEqual([204, 429]);
    expect(sandbox.sessionCount()).toBeLessThanOrEqual(Math.ceil((256 * 1024) / size) + 1);
    const mine = await call(sandbox, "GET", "/v2/deployments", "victim", undefined, "mine");
    expect((mine.body as Listed).resources.map((d) => d.id)).toEqual(seed(2).deployments.map((d) => d.id));
    const tooBig = {
      ...seed(1),
      deployments: Array.from({ length: 400 }, (_, i) => ({ ...seeded(i + 1, "READY"), name: `big-${i}` })),
    };
    expect((await call(sandbox, "PUT", "/__mock/state", "victim", tooBig, "mine")).status).toBe(503);
  });
});
