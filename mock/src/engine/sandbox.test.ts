/** The sandbox (D-79, D-272) on a port: any key, state per session owned by its key, reset, titled examples on Prefer, the rules of the reference server. */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { demo, examplePath, operation, requestExamples } from "../../../contract/index.js";
import { bodyFor } from "../../../server/testing/fixtures.js";
import { startedBeforeAll } from "../../../server/testing/started-before-all.js";
import { send } from "../../../server/testing/test-server.js";
import {
  type RunningMemorySandbox as RunningSandbox,
  startMemorySandbox as startSandbox,
} from "./memory-sandbox-server.js";

let sandbox: RunningSandbox;
startedBeforeAll(async () => {
  sandbox = await startSandbox({ readyAfterMs: 200 });
  return sandbox;
});

const deployments = operation("listDeployments").path;

/** A request to the shared sandbox with no key but the headers'. */
const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  send(sandbox.url, method, path, { key: null, headers, body });

describe("sandbox", () => {
  it("accepts any non-empty key, seeds the titled examples, and shows a create in the next list", async () => {
    const key = { "X-Api-Key": "my-own-key", "X-Mock-Session": "create-then-list" };
    const first = await call("GET", deployments, key);
    expect(first.status).toBe(200);
    expect(first.body.resources.length).toBeGreaterThan(0);
    const created = await call("POST", deployments, key, {
      ...bodyFor("internal_container", "sandbox-agent"),
      secrets: [{ name: "TOKEN", value: "s3cret" }],
    });
    expect(created.status).toBe(201);
    expect(created.body.secrets).toEqual([{ name: "TOKEN", value: "********" }]);
    const listed = await call("GET", `${deployments}?name_contains=sandbox-agent`, key);
    expect(listed.body.resources.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
  });

  it("keeps sessions apart, and keys apart within a session", async () => {
    const a = { "X-Api-Key": "k", "X-Mock-Session": "session-a" };
    const b = { "X-Api-Key": "k", "X-Mock-Session": "session-b" };
    await call("POST", deployments, a, bodyFor("internal_container", "only-in-a"));
    expect((await call("GET", `${deployments}?name_contains=only-in-a`, a)).body.resources).toHaveLength(1);
    expect((await call("GET", `${deployments}?name_contains=only-in-a`, b)).body.resources).toHaveLength(0);
    const otherKey = { ...a, "X-Api-Key": "another-key" };
    expect((await call("GET", `${deployments}?name_contains=only-in-a`, otherKey)).body.resources).toHaveLength(0);
  });

  it("resets a session", async () => {
    const headers = { "X-Api-Key": "k", "X-Mock-Session": "to-reset" };
    await call("POST", deployments, headers, bodyFor("internal_container", "before-reset"));
    expect((await call("POST", "/__mock/reset", headers)).status).toBe(204);
    expect((await call("GET", `${deployments}?name_contains=before-reset`, headers)).body.resources).toHaveLength(0);
    await call("POST", deployments, headers, bodyFor("internal_container", "before-delete"));
    expect((await call("DELETE", "/__mock/sessions/to-reset", { "X-Api-Key": "k" })).status).toBe(204);
    expect((await call("GET", `${deployments}?name_contains=before-delete`, headers)).body.resources).toHaveLength(0);
  });

  it("refuses a reset or a delete without a key; another key's reset or delete is of its own session (D-396)", async () => {
    const owner = { "X-Api-Key": "owner", "X-Mock-Session": "owned" };
    await call("POST", deployments, owner, bodyFor("internal_container", "owned-one"));
    const attempts = [
      await call("POST", "/__mock/reset", { "X-Mock-Session": "owned" }),
      await call("POST", "/__mock/reset", { "X-Api-Key": "intruder", "X-Mock-Session": "owned" }),
      await call("DELETE", "/__mock/sessions/owned", {}),
      await call("DELETE", "/__mock/sessions/owned", { "X-Api-Key": "intruder" }),
    ];
    expect(attempts.map((attempt) => attempt.status)).toEqual([401, 204, 401, 204]);
    // the sandbox's own refusals are problems as the pipeline's are (D-16)
    expect(attempts[0]!.headers.get("content-type")).toBe("application/problem+json");
    expect(attempts[0]!.body).toMatchObject({ status: 401 });
    expect((await call("GET", `${deployments}?name_contains=owned-one`, owner)).body.resources).toHaveLength(1);
    expect((await call("POST", "/__mock/reset", owner)).status).toBe(204);
    expect((await call("GET", `${deployments}?name_contains=owned-one`, owner)).body.resources).toHaveLength(0);
  });

  it("serves another key sending a session's id in a session of its own, default included (D-396)", async () => {
    for (const session of ["victim-session", undefined]) {
      const victim = { "X-Api-Key": "victim", ...(session ? { "X-Mock-Session": session } : {}) };
      const intruder = { "X-Api-Key": "intruder", ...(session ? { "X-Mock-Session": session } : {}) };
      const name = `victims-${session ?? "default"}`;
      expect((await call("POST", deployments, victim, bodyFor("internal_container", name))).status).toBe(201);
      expect((await call("GET", `${deployments}?name_contains=${name}`, intruder)).body.resources).toHaveLength(0);
      expect((await call("GET", "/__mock/state", intruder)).status).toBe(200);
      expect((await call("GET", `${deployments}?name_contains=${name}`, victim)).body.resources).toHaveLength(1);
    }
  });

  it("answers 400 to two X-Api-Key lines, as one key of its own would be their join (D-397)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${sandbox.url}${deployments}`);
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: [
            ["X-Api-Key", "first"],
            ["X-Api-Key", "second"],
          ].flat(),
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(400);
  });

  it("reads the target as sent: a Host holding a path never turns POST /reset into the sandbox's reset (D-270)", async () => {
    const headers = { "X-Api-Key": "host-path", "X-Mock-Session": "host-path" };
    const kept = await call("POST", deployments, headers, bodyFor("internal_container", "kept-through-host"));
    expect(kept.status).toBe(201);
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(sandbox.url);
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: "/reset",
          headers: { ...headers, Host: "h/__mock" },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end();
    });
    expect(status).not.toBe(204);
    const listed = await call("GET", `${deployments}?name_contains=kept-through-host`, headers);
    expect(listed.body.resources.map((d: { id: string }) => d.id)).toEqual([kept.body.id]);
  });

  it("applies the reference server's rules: 401 without a key, 409 on a taken name, 400 on a source rule, demo keys as themselves", async () => {
    const headers = { "X-Api-Key": "rules", "X-Mock-Session": "rules" };
    expect((await call("GET", deployments, { "X-Mock-Session": "rules" })).status).toBe(401);
    await call("POST", deployments, headers, bodyFor("internal_container", "taken"));
    expect((await call("POST", deployments, headers, bodyFor("internal_container", "taken"))).status).toBe(409);
    const broken = { ...bodyFor("internal_container", "broken"), source: "codehost" };
    expect((await call("POST", deployments, headers, broken)).body).toMatchObject({
      status: 400,
      type: "urn:deployment-service:problem:source-rule",
    });
    const repos = await call(
      "GET",
      examplePath(operation("listCodehostRepositories"), { integration_id: demo.acme.plainIntegrationId }),
      {
        "X-Api-Key": demo.globex.apiKey,
        "X-Mock-Session": "rules",
      },
    );
    expect(repos.status).toBe(404);
  });

  it("turns deployments READY after the configured delay", async () => {
    const headers = { "X-Api-Key": "k", "X-Mock-Session": "ready" };
    const created = await call("POST", deployments, headers, bodyFor("internal_container", "soon-ready"));
    expect(created.body.status).toBe("AWAITING_DATABASE");
    await new Promise((resolve) => setTimeout(resolve, 400));
    const listed = await call("GET", `${deployments}?deployment_ids=${created.body.id}`, headers);
    expect(listed.body.resources[0]).toMatchObject({
      status: "READY",
      active_revision_id: created.body.latest_revision_id,
    });
  });

  it("answers Prefer: code= and example= from the titled examples without touching state", async () => {
    const headers = { "X-Api-Key": "k", "X-Mock-Session": "prefer" };
    const conflict = await call(
      "POST",
      deployments,
      { ...headers, Prefer: "code=409" },
      bodyFor("internal_container", "prefer"),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("content-type")).toBe("application/problem+json");
    expect((await call("GET", `${deployments}?name_contains=prefer`, headers)).body.resources).toHaveLength(0);
    expect((await call("GET", deployments, { ...headers, Prefer: "code=418" })).status).toBe(404);
  });
});

describe("sandbox sessions (D-114)", () => {
  it("makes no session for a request without a key", async () => {
    const before = sandbox.sessionCount();
    for (let i = 0; i < 20; i++) {
      expect((await call("GET", "/healthz", { "X-Mock-Session": `keyless-${i}` })).status).toBe(200);
      expect((await call("GET", deployments, { "X-Mock-Session": `keyless-${i}` })).status).toBe(401);
    }
    expect(sandbox.sessionCount()).toBe(before);
  });

  it("bounds the sessions of one key, dropping only that key's least recently used, and refuses a new key when full (D-470)", async () => {
    const small = await startSandbox({ maxSessionsPerKey: 2, maxSessions: 3 });
    try {
      const send = (key: string, session: string, method = "GET", body?: unknown) =>
        fetch(`${small.url}${deployments}${method === "GET" ? "?name_contains=kept" : ""}`, {
          method,
          headers: { "X-Api-Key": key, "X-Mock-Session": session, "Content-Type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      expect((await send("victim", "victim-1", "POST", bodyFor("internal_container", "kept"))).status).toBe(201);
      for (const session of ["a", "b", "c", "d"]) expect((await send("attacker", session)).status).toBe(200);
      // The attacker's own sessions were dropped, never the victim's.
      expect((await (await send("victim", "victim-1")).json()).resources).toHaveLength(1);
      expect(small.sessionCount()).toBe(3);
      // Full: a new key is refused with a 429 problem rather than another key's session dropped.
      const refused = await send("newcomer", "n-1");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await (await send("victim", "victim-1")).json()).resources).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it("keeps the victim's provider listed after 1,000 made-up keys, then has room once their sessions expire (D-470, D-471)", async () => {
    const clock = { now: 0 };
    const small = await startSandbox({ maxSessions: 50, sessionIdleMs: 60_000, now: () => clock.now });
    try {
      const victim = { "X-Api-Key": "victim", "Content-Type": "application/json" };
      const provider = requestExamples(operation("createOAuthProvider"))[0]!.value as { provider_id: string };
      const created = await fetch(`${small.url}/v2/auth/providers`, {
        method: "POST",
        headers: victim,
        body: JSON.stringify(provider),
      });
      expect(created.ok).toBe(true);
      const statuses = new Map<number, number>();
      for (let i = 0; i < 1000; i += 40)
        await Promise.all(
          Array.from({ length: 40 }, async (_, j) => {
            const response = await fetch(`${small.url}${deployments}?limit=1`, {
              headers: { "X-Api-Key": `made-up-${i + j}` },
            });
            await response.arrayBuffer();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          }),
        );
      expect(Object.fromEntries(statuses)).toEqual({ 200: 49, 429: 951 });
      const listed = await fetch(`${small.url}/v2/auth/providers`, { headers: victim });
      expect(JSON.stringify(await listed.json())).toContain(provider.provider_id);
      // the made-up keys' sessions expire; the victim's, used just now, stays
      clock.now = 30_000;
      expect((await fetch(`${small.url}/v2/auth/providers`, { headers: victim })).status).toBe(200);
      clock.now = 61_000;
      const demoKey = { "X-Api-Key": demo.acme.apiKey, "X-Mock-Session": "demo", "Content-Type": "application/json" };
      const demoCreate = await fetch(`${small.url}${deployments}`, {
        method: "POST",
        headers: demoKey,
        body: JSON.stringify(bodyFor("internal_container", "demo-after-flood")),
      });
      expect(demoCreate.status).toBe(201);
      const again = await fetch(`${small.url}/v2/auth/providers`, { headers: victim });
      expect(JSON.stringify(await again.json())).toContain(provider.provider_id);
      expect(small.sessionCount()).toBe(2);
    } finally {
      await small.close();
    }
  }, 120_000);

  it("holds one client address to its sessions, not another address (D-471)", async () => {
    const small = await startSandbox({ maxSessionsPerAddress: 3 });
    try {
      /** A GET of the list under `key` from the loopback address `from`. */
      const list = (key: string, from: string) =>
        new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
          const outgoing = http.request(`${small.url}${deployments}`, {
            localAddress: from,
            headers: { "X-Api-Key": key },
          });
          outgoing.once("response", (response) => {
            response.resume();
            resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"] });
          });
          outgoing.once("error", reject);
          outgoing.end();
        });
      const statuses = [];
      for (const key of ["k1", "k2", "k3", "k4"]) statuses.push((await list(key, "127.0.0.1")).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number((await list("k4", "127.0.0.1")).retryAfter)).toBeGreaterThan(0);
      // a key that holds a session from this address still reaches it; another address still gets a session
      expect((await list("k1", "127.0.0.1")).status).toBe(200);
      expect((await list("k4", "127.0.0.2")).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it("refuses writes past a session's byte budget with a problem that says so", async () => {
    const small = await startSandbox({ maxBytesPerSession: 4000 });
    try {
      const headers = { "X-Api-Key": "budget", "X-Mock-Session": "budget", "Content-Type": "application/json" };
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push(
          (
            await fetch(`${small.url}${deployments}`, {
              method: "POST",
              headers,
              body: JSON.stringify(bodyFor("internal_container", `budget-${i}`)),
            })
          ).status,
        );
      expect(statuses.slice(0, 2)).toEqual([201, 201]);
      expect(statuses.at(-1)).toBe(503);
      const refused = await fetch(`${small.url}${deployments}`, {
        method: "POST",
        headers,
        body: JSON.stringify(bodyFor("internal_container", "budget-late")),
      });
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/budget of 4000 bytes/);
      expect((await fetch(`${small.url}${deployments}`, { headers })).status).toBe(200);
      expect((await fetch(`${small.url}/__mock/reset`, { method: "POST", headers })).status).toBe(204);
    } finally {
      await small.close();
    }
  });

  it("answers a request in flight when its session is dropped meanwhile", async () => {
    const headers = { "X-Api-Key": "k", "X-Mock-Session": "in-flight", "Content-Type": "application/json" };
    await call("GET", deployments, headers);
    // The create's headers arrive, the session is deleted, then its body arrives.
    const body = JSON.stringify(bodyFor("internal_container", "in-flight"));
    const request = http.request(`${sandbox.url}${deployments}`, {
      method: "POST",
      headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      request.once("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once("error", reject);
    });
    request.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call("DELETE", "/__mock/sessions/in-flight", { "X-Api-Key": "k" })).status).toBe(204);
    request.end(body);
    expect(await answered).toBe(201);
  });

  it("answers 400 for a session id that is not valid percent-encoding; each key under one id has its own session", async () => {
    const malformed = await call("DELETE", "/__mock/sessions/%E0%A4%A", {});
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("content-type")).toBe("application/problem+json");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        (await call("GET", deployments, { "X-Api-Key": `key-${i}`, "X-Mock-Session": "many-keys" })).status,
      );
    // a session is its key's own (D-396): the 21st key under one id is not a 21st key of one session
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("answers a new key's first requests sent together, each once its key is provisioned and seeded", async () => {
    const key = { "X-Api-Key": "first-together", "X-Mock-Session": "together" };
    const answers = await Promise.all(Array.from({ length: 4 }, () => call("GET", deployments, key)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const counts = answers.map((answer) => answer.body.resources.length);
    expect(new Set(counts).size).toBe(1);
    expect(counts[0]).toBeGreaterThan(0);
  });
});
