/** D-81: while PostgreSQL cannot be reached every operation answers 503 with Retry-After and /healthz says so; the server recovers by itself. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../contract/index.js";
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
