/** The sandbox's session table as a client sees it on its Node server (D-114, D-172, D-272, D-396, D-470, D-471) and the keys it provisions (D-15, D-49, D-79, D-321). */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { demo, operation, requestExamples } from "../../../contract/index.js";
import { bodyFor } from "../../../server/testing/fixtures.js";
import { createMemorySandbox, type MemorySandboxOptions } from "./memory-sandbox.js";
import { type RunningMemorySandbox, startMemorySandbox } from "./memory-sandbox-server.js";
import { type MockState, mockStateFormat } from "./mock-state.js";

const deployments = operation("listDeployments").path;
const providers = operation("listOAuthProviders").path;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON answer, read field by field (answers of many shapes). */
  body: any;
}

interface Sent {
  method?: string;
  path?: string;
  key?: string;
  session?: string;
  body?: unknown;
  /** The loopback address the request leaves from (D-471 counts sessions per client address). */
  from?: string;
  headers?: Record<string, string>;
}

/** One request to `sandbox` over HTTP, from `from` (127.0.0.1 unless given), on a connection of its own. */
function send(sandbox: RunningMemorySandbox, sent: Sent): Promise<Answer> {
  const text = sent.body === undefined ? undefined : JSON.stringify(sent.body);
  const headers: Record<string, string> = { ...sent.headers };
  if (sent.key !== undefined) headers["X-Api-Key"] = sent.key;
  if (sent.session !== undefined) headers["X-Mock-Session"] = sent.session;
  if (text !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["Content-Length"] = String(Buffer.byteLength(text));
  }
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${sandbox.url}${sent.path ?? deployments}`, {
      method: sent.method ?? "GET",
      headers,
      localAddress: sent.from ?? "127.0.0.1",
      agent: false,
    });
    outgoing.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: response.headers["retry-after"],
          contentType: response.headers["content-type"],
          body: raw ? JSON.parse(raw) : undefined,
        });
      });
      response.once("error", reject);
    });
    outgoing.once("error", reject);
    outgoing.end(text);
  });
}

/** Runs `body` against a sandbox started with `options`, closed afterwards whatever happens. */
async function withSandbox(
  options: MemorySandboxOptions,
  body: (sandbox: RunningMemorySandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await startMemorySandbox(options);
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** A test clock for the session table's idle time (the `now` option). */
function testClock() {
  const clock = { at: 0, now: () => clock.at };
  return clock;
}

/** How many deployments named like `name` the key's session lists. */
async function listed(sandbox: RunningMemorySandbox, key: string, session: string, name: string): Promise<number> {
  const answer = await send(sandbox, { key, session, path: `${deployments}?name_contains=${name}` });
  expect(answer.status).toBe(200);
  return answer.body.resources.length;
}

/** A state with no deployment and no provider: put into a session it replaces the titled examples, so a read tells it from a fresh session. */
const emptyState: MockState = { format: mockStateFormat, deployments: [], oauth_providers: [] };
/** The bytes a put of `emptyState` charges (its body as sent). */
const stateBytes = Buffer.byteLength(JSON.stringify(emptyState));

/** Whether the key's session `session` still holds the empty state put into it (a fresh one lists the titled examples). */
async function holdsThePutState(sandbox: RunningMemorySandbox, key: string, session: string): Promise<boolean> {
  const read = await send(sandbox, { key, session, path: "/__mock/state" });
  expect(read.status).toBe(200);
  return read.body.deployments.length === 0;
}

/** The clock advance of the key's session `session`, read without moving it (a fresh session's is 0, D-321). */
async function clockOf(sandbox: RunningMemorySandbox, key: string, session: string): Promise<number> {
  const moved = await send(sandbox, { method: "POST", path: "/__mock/clock", key, session, body: { advance_ms: 0 } });
  expect(moved.status).toBe(200);
  return moved.body.clock_advanced_ms;
}

describe("sessions per key (D-114, D-272)", () => {
  it("keeps 20 sessions of a key by default and drops its least recently used for a 21st, with creates well within the bytes", async () => {
    await withSandbox({}, async (sandbox) => {
      // two creates in one session: the 128 MiB of all sessions (D-396) take far more than one answer
      for (const name of ["first-of-s0", "second-of-s0"])
        expect(
          (await send(sandbox, { method: "POST", key: "k", session: "s0", body: bodyFor("internal_container", name) }))
            .status,
        ).toBe(201);
      for (let i = 1; i <= 20; i++) expect((await send(sandbox, { key: "k", session: `s${i}` })).status).toBe(200);
      expect(sandbox.sessionCount()).toBe(20);
      // s0, the least recently used of k's 21, was dropped: its next request starts it again from the seed
      expect(await listed(sandbox, "k", "s0", "of-s0")).toBe(0);
    });
  });

  it("drops the key's least recently used when a further one comes, however its sessions were used before", async () => {
    await withSandbox({ maxSessionsPerKey: 2, maxSessions: 10 }, async (sandbox) => {
      expect((await send(sandbox, { key: "k", session: "a" })).status).toBe(200);
      expect(
        (await send(sandbox, { method: "POST", key: "k", session: "b", body: bodyFor("internal_container", "in-b") }))
          .status,
      ).toBe(201);
      // c replaces a, then d replaces b: the key's set follows every drop
      expect((await send(sandbox, { key: "k", session: "c" })).status).toBe(200);
      expect((await send(sandbox, { key: "k", session: "d" })).status).toBe(200);
      expect(sandbox.sessionCount()).toBe(2);
      expect(await listed(sandbox, "k", "b", "in-b")).toBe(0);
    });
  });
});

describe("a full table (D-470)", () => {
  const refusals: {
    name: string;
    given: { options: MemorySandboxOptions; holders: string[]; at: number };
    want: { retryAfter: string; detail: string };
  }[] = [
    {
      name: "the least recently used session used 15 s ago of 60",
      given: { options: { maxSessions: 1, sessionIdleMs: 60_000 }, holders: ["a"], at: 15_000 },
      want: {
        retryAfter: "45",
        detail:
          "The mock holds its 1 sessions, each another key's; try again when one expires, or reuse a session of your key.",
      },
    },
    {
      name: "half a second left, rounded up to a whole second",
      given: { options: { maxSessions: 2, sessionIdleMs: 60_000 }, holders: ["a", "b"], at: 59_500 },
      want: {
        retryAfter: "1",
        detail:
          "The mock holds its 2 sessions, each another key's; try again when one expires, or reuse a session of your key.",
      },
    },
    {
      name: "sessions that never expire (as --state-file keeps them)",
      given: { options: { maxSessions: 1, sessionIdleMs: Number.POSITIVE_INFINITY }, holders: ["a"], at: 15_000 },
      want: {
        retryAfter: "60",
        detail:
          "The mock holds its 1 sessions, each another key's; try again when one expires, or reuse a session of your key.",
      },
    },
    {
      name: "a table of no session, none to wait for",
      given: { options: { maxSessions: 0, sessionIdleMs: 60_000 }, holders: [], at: 0 },
      want: {
        retryAfter: "60",
        detail:
          "The mock holds its 0 sessions, each another key's; try again when one expires, or reuse a session of your key.",
      },
    },
  ];
  it.each(refusals)("refuses a new key with 429 and Retry-After: $name", async ({ given, want }) => {
    const clock = testClock();
    await withSandbox({ ...given.options, now: clock.now }, async (sandbox) => {
      for (const key of given.holders) expect((await send(sandbox, { key })).status).toBe(200);
      clock.at = given.at;
      const refused = await send(sandbox, { key: "newcomer" });
      expect(refused.status).toBe(429);
      expect(refused.contentType).toBe("application/problem+json");
      expect(refused.retryAfter).toBe(want.retryAfter);
      expect(refused.body).toMatchObject({ status: 429, detail: want.detail });
      // the holders keep their sessions (D-470: never another key's)
      expect(sandbox.sessionCount()).toBe(given.holders.length);
    });
  });

  it("has room again once the least recently used session's idle time has run out, to the millisecond (D-471)", async () => {
    const clock = testClock();
    await withSandbox({ maxSessions: 1, sessionIdleMs: 60_000, now: clock.now }, async (sandbox) => {
      expect((await send(sandbox, { key: "a" })).status).toBe(200);
      clock.at = 59_999;
      expect((await send(sandbox, { key: "b" })).status).toBe(429);
      clock.at = 60_000;
      expect((await send(sandbox, { key: "b" })).status).toBe(200);
    });
  });
});

describe("idle sessions (D-471)", () => {
  it("expires a session unused for exactly the idle time, and keeps one used a millisecond later", async () => {
    const clock = testClock();
    await withSandbox({ sessionIdleMs: 60_000, now: clock.now }, async (sandbox) => {
      for (const session of ["s", "t"])
        expect(
          (await send(sandbox, { method: "POST", key: "k", session, body: bodyFor("internal_container", "idle") }))
            .status,
        ).toBe(201);
      clock.at = 59_999;
      expect(await listed(sandbox, "k", "t", "idle")).toBe(1);
      clock.at = 60_000;
      expect(await listed(sandbox, "k", "s", "idle")).toBe(0);
      expect(await listed(sandbox, "k", "t", "idle")).toBe(1);
    });
  });
});

describe("sessions per client address (D-471)", () => {
  const addressDetail = (max: number) =>
    `Your address holds its ${max} mock sessions; reuse one, delete one (DELETE /__mock/sessions/<id>), or try again when one expires.`;

  it("lets a key at its cap replace its own session made from the same full address", async () => {
    await withSandbox({ maxSessionsPerKey: 2, maxSessionsPerAddress: 2 }, async (sandbox) => {
      const statuses = [];
      for (const session of ["a", "b", "c"]) statuses.push((await send(sandbox, { key: "k", session })).status);
      // c replaces a (D-114), and the address still holds 2
      expect(statuses).toEqual([200, 200, 200]);
      expect(sandbox.sessionCount()).toBe(2);
    });
  });

  it("refuses a key at its cap whose least recently used session came from another address", async () => {
    await withSandbox({ maxSessionsPerKey: 2, maxSessionsPerAddress: 2 }, async (sandbox) => {
      expect((await send(sandbox, { key: "k", session: "a", from: "127.0.0.2" })).status).toBe(200);
      expect((await send(sandbox, { key: "k", session: "b", from: "127.0.0.1" })).status).toBe(200);
      expect((await send(sandbox, { key: "j", session: "c", from: "127.0.0.1" })).status).toBe(200);
      // dropping a frees no room at 127.0.0.1, which holds b and c
      const refused = await send(sandbox, { key: "k", session: "d", from: "127.0.0.1" });
      expect(refused.status).toBe(429);
      expect(refused.contentType).toBe("application/problem+json");
      // which session the wait counts down is left open (D-471); that there is one is not
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ status: 429, detail: addressDetail(2) });
      expect(sandbox.sessionCount()).toBe(3);
    });
  });

  it("gives the address back one slot for each session deleted, and only one", async () => {
    await withSandbox({ maxSessionsPerAddress: 3 }, async (sandbox) => {
      for (const session of ["s1", "s2", "s3"]) expect((await send(sandbox, { key: "k", session })).status).toBe(200);
      expect((await send(sandbox, { key: "k", session: "s4" })).status).toBe(429);
      expect((await send(sandbox, { method: "DELETE", path: "/__mock/sessions/s1", key: "k" })).status).toBe(204);
      const statuses = [];
      for (const session of ["s4", "s5", "s6"]) statuses.push((await send(sandbox, { key: "k", session })).status);
      expect(statuses).toEqual([200, 429, 429]);
    });
  });
});

describe("the bytes of all sessions (D-396, D-470)", () => {
  type Step = [key: string, session: string, what: "put" | "delete"];
  const budgets: { name: string; given: { states: number; steps: Step[] }; want: number[] }[] = [
    {
      name: "a state put again replaces the bytes it took",
      given: { states: 3, steps: Array.from({ length: 4 }, (): Step => ["a", "s", "put"]) },
      want: [204, 204, 204, 204],
    },
    {
      name: "a total exactly at the budget is within it",
      given: {
        states: 1,
        steps: [
          ["a", "s", "put"],
          ["a", "s", "put"],
        ],
      },
      want: [204, 204],
    },
    {
      name: "a deleted session holds no bytes",
      given: {
        states: 2.5,
        steps: [
          ["a", "s", "put"],
          ["a", "s", "delete"],
          ["a", "s", "put"],
          ["a", "s", "delete"],
          ["a", "s", "put"],
          ["a", "s", "delete"],
        ],
      },
      want: [204, 204, 204, 204, 204, 204],
    },
    {
      name: "a key holding several loses its least recently used",
      given: {
        states: 1.5,
        steps: [
          ["a", "s0", "put"],
          ["a", "s1", "put"],
          ["a", "s2", "put"],
        ],
      },
      want: [204, 204, 204],
    },
  ];
  it.each(budgets)("answers each write within the budget: $name", async ({ given, want }) => {
    await withSandbox({ maxBytesInAll: Math.floor(given.states * stateBytes) }, async (sandbox) => {
      const statuses = [];
      for (const [key, session, what] of given.steps)
        statuses.push(
          (
            await send(
              sandbox,
              what === "put"
                ? { method: "PUT", path: "/__mock/state", key, session, body: emptyState }
                : { method: "DELETE", path: `/__mock/sessions/${session}`, key },
            )
          ).status,
        );
      expect(statuses).toEqual(want);
    });
  });

  it("sheds the key's least recently used, never the session just written", async () => {
    await withSandbox({ maxBytesInAll: Math.floor(1.5 * stateBytes) }, async (sandbox) => {
      for (const session of ["s0", "s1", "s2"])
        expect(
          (await send(sandbox, { method: "PUT", path: "/__mock/state", key: "a", session, body: emptyState })).status,
        ).toBe(204);
      expect(sandbox.sessionCount()).toBe(1);
      expect(await holdsThePutState(sandbox, "a", "s2")).toBe(true);
    });
  });

  it("refuses a write with 429 and Retry-After when every key holds one session", async () => {
    const clock = testClock();
    const options = { maxBytesInAll: Math.floor(1.5 * stateBytes), sessionIdleMs: 60_000, now: clock.now };
    await withSandbox(options, async (sandbox) => {
      const put = (key: string) => send(sandbox, { method: "PUT", path: "/__mock/state", key, body: emptyState });
      expect((await put("a")).status).toBe(204);
      clock.at = 10_000;
      expect((await put("b")).status).toBe(204);
      clock.at = 15_000;
      const refused = await put("c");
      expect(refused.status).toBe(429);
      // a's session, the least recently used, expires 45 s from now
      expect(refused.retryAfter).toBe("45");
      expect(refused.body).toMatchObject({ status: 429 });
      expect(sandbox.sessionCount()).toBe(2);
    });
  });

  it("sheds a session that holds no bytes when its key is the only one holding several", async () => {
    await withSandbox({ maxBytesInAll: Math.floor(0.5 * stateBytes) }, async (sandbox) => {
      expect(
        (
          await send(sandbox, {
            method: "POST",
            path: "/__mock/clock",
            key: "a",
            session: "s1",
            body: { advance_ms: 5000 },
          })
        ).status,
      ).toBe(200);
      expect(
        (await send(sandbox, { method: "PUT", path: "/__mock/state", key: "a", session: "s2", body: emptyState }))
          .status,
      ).toBe(204);
      // s1 was dropped: its clock starts again at 0
      expect(await clockOf(sandbox, "a", "s1")).toBe(0);
    });
  });

  // B holds two states, A one session with a moved clock and no bytes; A's put into a second session passes the
  // budget: B, holding the most bytes besides the session just written, loses its least recently used (D-396, D-470),
  // whichever key came first
  it.each([
    { name: "A first", order: ["A", "B"] },
    { name: "B first", order: ["B", "A"] },
  ])("sheds from the key holding the most bytes, not the one just written: $name", async ({ order }) => {
    await withSandbox({ maxBytesInAll: Math.floor(2.5 * stateBytes) }, async (sandbox) => {
      for (const key of order)
        if (key === "A")
          expect(
            (
              await send(sandbox, {
                method: "POST",
                path: "/__mock/clock",
                key: "A",
                session: "s1",
                body: { advance_ms: 5000 },
              })
            ).status,
          ).toBe(200);
        else
          for (const session of ["t0", "t1"])
            expect(
              (await send(sandbox, { method: "PUT", path: "/__mock/state", key: "B", session, body: emptyState }))
                .status,
            ).toBe(204);
      expect(
        (await send(sandbox, { method: "PUT", path: "/__mock/state", key: "A", session: "s2", body: emptyState }))
          .status,
      ).toBe(204);
      expect(sandbox.sessionCount()).toBe(3);
      expect(await clockOf(sandbox, "A", "s1")).toBe(5000);
      expect(await holdsThePutState(sandbox, "B", "t1")).toBe(true);
      expect(await holdsThePutState(sandbox, "A", "s2")).toBe(true);
    });
  });
});

describe("dropping sessions from the process (D-114, D-172)", () => {
  it("drops one id's sessions on reset(id), every key's, and leaves the other ids", async () => {
    await withSandbox({}, async (sandbox) => {
      for (const [key, session] of [
        ["k", "x"],
        ["j", "x"],
        ["k", "y"],
      ] as const)
        expect(
          (await send(sandbox, { method: "POST", key, session, body: bodyFor("internal_container", "before-reset") }))
            .status,
        ).toBe(201);
      sandbox.reset("x");
      expect(sandbox.sessionCount()).toBe(1);
      expect(await listed(sandbox, "k", "y", "before-reset")).toBe(1);
      expect(await listed(sandbox, "k", "x", "before-reset")).toBe(0);
      expect(await listed(sandbox, "j", "x", "before-reset")).toBe(0);
    });
  });

  it("drops every session on reset()", async () => {
    await withSandbox({}, async (sandbox) => {
      for (const key of ["k", "j"])
        expect(
          (await send(sandbox, { method: "POST", key, body: bodyFor("internal_container", "before-reset") })).status,
        ).toBe(201);
      sandbox.reset();
      expect(sandbox.sessionCount()).toBe(0);
      expect(await listed(sandbox, "k", "default", "before-reset")).toBe(0);
    });
  });
});

describe("a request in flight while sessions change (D-114, D-396)", () => {
  const origin = "http://sandbox.test";
  /** A request through the sandbox's fetch handler, in-process: it reaches the session table before its first await. */
  const request = (method: string, session: string, body?: unknown) =>
    new Request(`${origin}${deployments}`, {
      method,
      headers: { "X-Api-Key": "k", "X-Mock-Session": session, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("answers a create whose new session is reset while it is being made", async () => {
    const sandbox = createMemorySandbox();
    const created = sandbox.handle(request("POST", "x", bodyFor("internal_container", "in-flight")));
    sandbox.reset("x");
    expect((await created).status).toBe(201);
  });

  it("sheds the key's other session, not the one a create just wrote to, when another request used that one since", async () => {
    const sandbox = createMemorySandbox({ maxBytesInAll: 1 });
    expect((await sandbox.handle(request("GET", "s2"))).status).toBe(200);
    // s1 is made first, then s2 is used: when the create's answer is charged, s1 is the key's least recently used
    const created = sandbox.handle(request("POST", "s1", bodyFor("internal_container", "kept-in-s1")));
    const read = sandbox.handle(request("GET", "s2"));
    expect((await created).status).toBe(201);
    expect((await read).status).toBe(200);
    expect(sandbox.sessionCount()).toBe(1);
    const list = await sandbox.handle(
      new Request(`${origin}${deployments}?name_contains=kept-in-s1`, request("GET", "s1")),
    );
    expect(((await list.json()) as { resources: unknown[] }).resources).toHaveLength(1);
  });

  it("answers every one of 25 concurrent first requests of a new key (D-79)", async () => {
    const sandbox = createMemorySandbox();
    const answers = await Promise.all(Array.from({ length: 25 }, () => sandbox.handle(request("GET", "burst"))));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 25 }, () => 200));
  });
});

describe("the keys a session provisions (D-15, D-79)", () => {
  it("gives each key its own organization and tenant, the same in every session, reachable from a session's first request", async () => {
    await withSandbox({}, async (sandbox) => {
      const provider = requestExamples(operation("createOAuthProvider"))[0]!.value;
      const ids: Record<string, { tenant: string; organization: string }> = {};
      for (const key of ["a", "b"]) {
        const list = await send(sandbox, { key, session: "first" });
        const created = await send(sandbox, { method: "POST", path: providers, key, session: "first", body: provider });
        // D-06: a provider create answers 200
        expect(created.status).toBe(200);
        ids[key] = { tenant: list.body.resources[0].tenant_id, organization: created.body.organization_id };
      }
      expect(ids.a!.tenant).not.toBe(ids.b!.tenant);
      expect(ids.a!.organization).not.toBe(ids.b!.organization);
      // a new session of a: its very first request may name a's tenant, not b's
      const own = await send(sandbox, { key: "a", session: "second", headers: { "X-Tenant-Id": ids.a!.tenant } });
      expect(own.status).toBe(200);
      expect(own.body.resources.map((d: { tenant_id: string }) => d.tenant_id)).toContain(ids.a!.tenant);
      const foreign = await send(sandbox, { key: "a", session: "third", headers: { "X-Tenant-Id": ids.b!.tenant } });
      expect(foreign.status).toBe(403);
      const again = await send(sandbox, {
        method: "POST",
        path: providers,
        key: "a",
        session: "second",
        body: provider,
      });
      expect(again.body.organization_id).toBe(ids.a!.organization);
    });
  });

  it("seeds a demo key's tenant with the titled examples in a fresh session", async () => {
    await withSandbox({}, async (sandbox) => {
      const list = await send(sandbox, { key: demo.acme.apiKey, session: "demo-fresh" });
      expect(list.status).toBe(200);
      expect(list.body.resources.map((d: { name: string; tenant_id: string }) => [d.name, d.tenant_id])).toContainEqual(
        ["support-agent", demo.acme.productionTenantId],
      );
    });
  });

  it("lets a sandbox key use the demo tenant's integrations and refuses another integration id with D-49's 400", async () => {
    await withSandbox({}, async (sandbox) => {
      const codehost = (name: string, integrationId: string) => ({
        name,
        source: "codehost",
        source_config: {
          integration_id: integrationId,
          repo_url: "https://codehost.example/acme/support-agent",
          build_on_push: false,
        },
        source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
        secrets: [],
      });
      const key = { key: "my-own-key", session: "codehost" };
      const modelled = await send(sandbox, {
        ...key,
        method: "POST",
        body: codehost("modelled", demo.acme.plainIntegrationId),
      });
      expect(modelled.status).toBe(201);
      const unknown = await send(sandbox, {
        ...key,
        method: "POST",
        body: codehost("unknown", "00000000-0000-4000-8000-000000000099"),
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([
        { pointer: "/source_config/integration_id", detail: "is not a code-host integration of this tenant" },
      ]);
    });
  });
});

describe("a session's clock and cap (D-170, D-172, D-321)", () => {
  it("sets the clock from a state put, as a read and a move of 0 show", async () => {
    await withSandbox({}, async (sandbox) => {
      const put = await send(sandbox, {
        method: "PUT",
        path: "/__mock/state",
        key: "k",
        body: { ...emptyState, clock_advanced_ms: 5000 },
      });
      expect(put.status).toBe(204);
      expect((await send(sandbox, { path: "/__mock/state", key: "k" })).body.clock_advanced_ms).toBe(5000);
      expect(await clockOf(sandbox, "k", "default")).toBe(5000);
    });
  });

  it("answers a create beyond the session's deployments with a 503 that says to reset it", async () => {
    await withSandbox({ maxDeploymentsPerSession: 4 }, async (sandbox) => {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await send(sandbox, { method: "POST", key: "k", body: bodyFor("internal_container", `capped-${i}`) }))
            .status,
        );
      // the seeded examples hold part of the cap
      expect(statuses).toEqual([201, 201, 503, 503]);
      const refused = await send(sandbox, {
        method: "POST",
        key: "k",
        body: bodyFor("internal_container", "one-more"),
      });
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toBe(
        "This mock session holds its cap of 4 deployments; reset it (POST /__mock/reset) or use another X-Mock-Session.",
      );
    });
  });
});
