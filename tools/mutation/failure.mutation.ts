/**
 * The failure phase of the mutation run (D-360): what a client sees when the world around the reference server
 * fails, which no check of the suite can cause: PostgreSQL cut off and back (D-81), the SQLite file's write lock held
 * by another process (D-110), and one address holding its cap of open connections (D-466). Each server is started as
 * `npm start` starts it, in the test's process, and judged over HTTP.
 */
import http from "node:http";
import net from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { demo, operation } from "../../contract/index.js";
import { holdWriteLock, probeDuringForeignLock } from "../../server/testing/foreign-lock.js";
import { startTcpProxy } from "../../server/testing/tcp-proxy.js";

const deploymentsPath = operation("listDeployments").path;
const createBody = {
  name: "made-under-failure",
  source: "internal_container",
  source_config: {},
  source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
  secrets: [],
};
const problemType = (name: string) => `urn:deployment-service:problem:${name}`;

/** A reference server and what to undo after it. */
let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups = [];
});

/** Starts the reference server on `database` with `extra` set beside the harness's environment (targets.ts). */
async function reference(
  database: "sqlite" | "postgres",
  extra: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv = (env) => env,
) {
  // loaded here, not with this file: a static mutant that throws while they load fails these tests (D-360)
  const { referenceEnvironment, startReference } = await import("./targets.js");
  const where = referenceEnvironment("cloud", database);
  cleanups.push(() => where.remove());
  const env = extra(where.env);
  const server = await startReference(env);
  cleanups.push(() => server.close());
  return { baseUrl: server.baseUrl, env };
}

/** One request's status, Retry-After, Content-Type and parsed body. */
async function send(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; key?: string | null } = {},
) {
  const key = init.key === undefined ? demo.acme.apiKey : init.key;
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(key ? { "X-Api-Key": key } : {}), "Content-Type": "application/json" },
    signal: AbortSignal.timeout(30_000),
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    contentType: response.headers.get("content-type"),
    text,
    body: text === "" ? undefined : JSON.parse(text),
  };
}

/** The first answer that is `want`, asked up to 50 times 100 ms apart. */
async function eventually(ask: () => Promise<{ status: number }>, want: number) {
  let answer = await ask();
  for (let tries = 0; tries < 50 && answer.status !== want; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await ask();
  }
  return answer;
}

describe("PostgreSQL cut off and back (D-81)", () => {
  it("answers 503 with Retry-After: 2 while the database cannot be reached, says so on /healthz, and recovers", async () => {
    const upstream = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
    const proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    cleanups.push(() => proxy.close());
    const { baseUrl } = await reference("postgres", (env) => {
      const url = new URL(env.DATABASE_URL!);
      url.host = `127.0.0.1:${proxy.port}`;
      return { ...env, DATABASE_URL: url.toString() };
    });
    expect((await send(baseUrl, deploymentsPath)).status).toBe(200);

    await proxy.cut();
    for (const answer of [
      await send(baseUrl, deploymentsPath),
      await send(baseUrl, deploymentsPath, { method: "POST", body: createBody }),
    ]) {
      expect([answer.status, answer.retryAfter, answer.contentType]).toEqual([503, "2", "application/problem+json"]);
      expect(answer.body).toMatchObject({ type: problemType("service-unavailable"), status: 503 });
      expect(answer.body.detail).toMatch(/\S/);
      expect(answer.text).not.toMatch(/ECONN|127\.0\.0\.1|postgres/i);
    }
    const health = await send(baseUrl, "/healthz", { key: null });
    expect([health.status, health.retryAfter, health.body]).toEqual([
      503,
      "2",
      { status: "unavailable", database: "unreachable" },
    ]);

    await proxy.restore();
    expect((await eventually(() => send(baseUrl, deploymentsPath), 200)).status).toBe(200);
    expect((await send(baseUrl, deploymentsPath, { method: "POST", body: createBody })).status).toBe(201);
    expect((await send(baseUrl, "/healthz", { key: null })).body).toEqual({ status: "ok", database: "ok" });
  });
});

describe("the SQLite write lock held by another process (D-110)", () => {
  it("keeps answering lists and /healthz (locked), answers a create 503 with Retry-After: 2 after its wait, and stores one that a short lock delays", async () => {
    const { baseUrl, env } = await reference("sqlite");
    const sqlitePath = join(env.DATA_DIR!, "service.sqlite");
    const probe = await probeDuringForeignLock({
      baseUrl,
      sqlitePath,
      apiKey: demo.acme.apiKey,
      holdMs: 3000,
      createBody,
    });
    expect(probe.listStatuses.length).toBeGreaterThan(0);
    expect(new Set(probe.listStatuses)).toEqual(new Set([200]));
    expect(new Set(probe.healthBodies)).toEqual(new Set([JSON.stringify({ status: "degraded", database: "locked" })]));
    expect(probe.create).toMatchObject({ status: 503, retryAfter: "2", beforeRelease: true });
    expect(await send(baseUrl, "/healthz", { key: null })).toMatchObject({
      status: 200,
      body: { status: "ok", database: "ok" },
    });

    // a lock shorter than the create's wait: the create is stored once it is let go
    const lock = await holdWriteLock(sqlitePath, 300);
    const created = await send(baseUrl, deploymentsPath, { method: "POST", body: createBody });
    await lock.released;
    expect(created.status).toBe(201);
    const listed = await send(baseUrl, `${deploymentsPath}?name_contains=made-under-failure`);
    expect(listed.body.resources.map((record: { id: string }) => record.id)).toEqual([created.body.id]);
  });
});

/** A connection that sends nothing, and what the server wrote on it once it closed it. */
interface Held {
  socket: net.Socket;
  /** `<status> <Retry-After or -> <body>` once the server closed the connection (`closed` for no answer). */
  closed: Promise<string>;
}

/** Opens a connection from `localAddress` that sends nothing. */
function hold(baseUrl: string, localAddress: string): Held {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect({ host: hostname, port: Number(port), localAddress });
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  const closed = new Promise<string>((resolve) =>
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? "closed";
      const retryAfter = /\r\nretry-after: (\S+)\r\n/i.exec(received)?.[1];
      const body = received.slice(received.indexOf("\r\n\r\n") + 4);
      resolve(`${status} ${retryAfter ?? "-"} ${body}`);
    }),
  );
  return { socket, closed };
}

/** Whether `closed` settles within `ms`. */
const settlesWithin = (closed: Promise<string>, ms: number) =>
  Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/** A list's status from `localAddress`, on a connection of its own. */
function listFrom(baseUrl: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get(
      `${baseUrl}${deploymentsPath}?limit=1`,
      { headers: { "X-Api-Key": demo.acme.apiKey }, agent: false, localAddress },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

// Other loopback addresses (127.0.0.3) are Linux's.
describe.skipIf(process.platform !== "linux")("the connections of one address (D-466)", () => {
  it("serves 256 open connections of one address, answers the 257th 503 with Retry-After: 1 at once, serves other addresses, and frees a place when one closes", async () => {
    // a head timeout longer than the test, so that the held connections stay held; every cap is the default
    const { baseUrl } = await reference("sqlite", (env) => ({ ...env, HEADERS_TIMEOUT_MS: "30000" }));
    const address = "127.0.0.3";
    const held: Held[] = [];
    cleanups.push(async () => {
      for (const connection of held) connection.socket.destroy();
    });
    for (let i = 0; i < 256; i++) held.push(hold(baseUrl, address));
    await Promise.all(held.map((connection) => new Promise((resolve) => connection.socket.once("connect", resolve))));
    const over = hold(baseUrl, address);
    held.push(over);
    expect(await settlesWithin(over.closed, 5000)).toBe(true);
    const [status, retryAfter, ...body] = (await over.closed).split(" ");
    expect([status, retryAfter]).toEqual(["503", "1"]);
    expect(JSON.parse(body.join(" "))).toMatchObject({ type: problemType("service-unavailable"), status: 503 });
    expect(JSON.parse(body.join(" ")).detail).toMatch(/\S/);
    // none of the 256 was answered or closed
    expect(
      await Promise.all(held.slice(0, 256).map((connection) => settlesWithin(connection.closed, 0))),
    ).not.toContain(true);
    expect(await listFrom(baseUrl, "127.0.0.1")).toBe(200);

    // a refused client that resets its connection harms no one
    const reset = hold(baseUrl, address);
    held.push(reset);
    reset.socket.once("connect", () => reset.socket.resetAndDestroy());
    await reset.closed;
    expect(await listFrom(baseUrl, "127.0.0.1")).toBe(200);

    // one of the 256 closes: one place is free, not more
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = hold(baseUrl, address);
    held.push(next);
    await new Promise((resolve) => next.socket.once("connect", resolve));
    expect(await settlesWithin(next.closed, 300)).toBe(false);
    expect(await listFrom(baseUrl, address)).toBe(503);
  });

  it("caps no address when MAX_CONNECTIONS_PER_ADDRESS is 0", async () => {
    const { baseUrl } = await reference("sqlite", (env) => ({ ...env, MAX_CONNECTIONS_PER_ADDRESS: "0" }));
    expect(await listFrom(baseUrl, "127.0.0.3")).toBe(200);
  });
});
