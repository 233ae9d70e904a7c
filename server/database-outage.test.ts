/** D-81: while PostgreSQL cannot be reached (the connection cut, or the database server stopped) every operation answers 503 with Retry-After and /healthz says so; the server recovers by itself. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo, operation } from "../contract/index.js";
import { type ChildServer, startChildServer } from "./testing/child-server.js";
import { type PrivatePostgres, privatePostgresAvailable, startPrivatePostgres } from "./testing/private-postgres.js";
import { startTcpProxy, type TcpProxy } from "./testing/tcp-proxy.js";
import { startTestServer, type TestServer, testDatabaseUrl } from "./testing/test-server.js";

const deployments = operation("listDeployments").path;

describe.skipIf(!testDatabaseUrl)("database outage (PostgreSQL behind a proxy the test cuts)", () => {
  let proxy: TcpProxy;
  let server: TestServer;
  beforeAll(async () => {
    const url = new URL(testDatabaseUrl!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startTestServer({}, { databaseUrl: url.toString() });
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await server?.close();
    await proxy?.close();
  });

  it("answers 503 service-unavailable with Retry-After while the database is down, then recovers", async () => {
    expect((await server.request("GET", deployments)).status).toBe(200);
    await proxy.cut();

    const list = await server.request("GET", deployments);
    expect(list.status).toBe(503);
    expect(list.headers.get("retry-after")).toBe("2");
    expect(list.headers.get("content-type")).toBe("application/problem+json");
    expect(list.body).toMatchObject({ type: "urn:deployment-service:problem:service-unavailable", status: 503 });
    expect(list.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
    const health = await server.request("GET", "/healthz", { key: null });
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: "unavailable", database: "unreachable" });

    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await server.request("GET", deployments)).status;
    }
    expect(recovered).toBe(200);
    expect((await server.request("GET", "/healthz", { key: null })).body).toEqual({ status: "ok", database: "ok" });
  });
});

describe.skipIf(!privatePostgresAvailable())(
  "database outage (a PostgreSQL cluster of the test's own, stopped and started)",
  () => {
    let postgres: PrivatePostgres;
    let server: ChildServer;
    const get = (path: string, key: string | null = demo.acme.apiKey) =>
      fetch(`${server.url}${path}`, { headers: key ? { "X-Api-Key": key } : {} });
    beforeAll(async () => {
      postgres = await startPrivatePostgres();
      // The built server, as `npm start` runs it.
      server = await startChildServer({ env: { DATABASE_URL: postgres.url, DEMO: "true" } });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await postgres?.destroy();
    });

    it("answers 503 with Retry-After while PostgreSQL is stopped, /healthz says so, and recovers once it runs again", async () => {
      expect((await get(deployments)).status).toBe(200);
      await postgres.stop();

      const list = await get(deployments);
      expect(list.status).toBe(503);
      expect(list.headers.get("retry-after")).toBe("2");
      expect(list.headers.get("content-type")).toBe("application/problem+json");
      const text = await list.text();
      expect(JSON.parse(text)).toMatchObject({
        type: "urn:deployment-service:problem:service-unavailable",
        status: 503,
      });
      expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
      const health = await get("/healthz", null);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: "unavailable", database: "unreachable" });

      await postgres.start();
      let recovered = 0;
      for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        recovered = (await get(deployments)).status;
      }
      expect(recovered).toBe(200);
      expect(await (await get("/healthz", null)).json()).toEqual({ status: "ok", database: "ok" });
    }, 60_000);
  },
);
