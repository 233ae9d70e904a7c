/** Tests of the HTTP hardening (D-16, D-30 to D-32): 400 malformed JSON, 404, 405 with Allow, 413, 415, request ids, no internals in problems. */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyFor } from "../testing/fixtures.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const problemTypes = {
  400: "urn:deployment-service:problem:malformed-json",
  404: "urn:deployment-service:problem:not-found",
  405: "urn:deployment-service:problem:method-not-allowed",
  413: "urn:deployment-service:problem:payload-too-large",
  415: "urn:deployment-service:problem:unsupported-media-type",
} as const;

describe("problem details", () => {
  const cases: Array<{
    given: string;
    method: string;
    path: string;
    rawBody?: string | Buffer;
    headers?: Record<string, string>;
    want: keyof typeof problemTypes;
  }> = [
    {
      given: "malformed JSON",
      method: "POST",
      path: "/v2/deployments",
      rawBody: '{"name": ',
      headers: { "Content-Type": "application/json" },
      want: 400,
    },
    {
      given: "an empty body",
      method: "POST",
      path: "/v2/auth/providers",
      rawBody: "",
      headers: { "Content-Type": "application/json" },
      want: 400,
    },
    { given: "an unknown route", method: "GET", path: "/v2/nothing", want: 404 },
    { given: "a trailing slash", method: "GET", path: "/v2/deployments/", want: 404 },
    { given: "DELETE on deployments", method: "DELETE", path: "/v2/deployments", want: 405 },
    { given: "PUT on providers", method: "PUT", path: "/v2/auth/providers", want: 405 },
    {
      given: "POST on repositories",
      method: "POST",
      path: "/v1/integrations/codehost/3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65/repos",
      want: 405,
    },
    {
      given: "a text/plain body",
      method: "POST",
      path: "/v2/deployments",
      rawBody: "{}",
      headers: { "Content-Type": "text/plain" },
      want: 415,
    },
    { given: "no content type", method: "POST", path: "/v2/deployments", rawBody: "{}", want: 415 },
    {
      given: "a latin-1 JSON body",
      method: "POST",
      path: "/v2/deployments",
      rawBody: "{}",
      headers: { "Content-Type": "application/json; charset=iso-8859-1" },
      want: 415,
    },
    {
      given: "a body above 1 MiB",
      method: "POST",
      path: "/v2/deployments",
      rawBody: JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
      headers: { "Content-Type": "application/json" },
      want: 413,
    },
  ];
  for (const { given, method, path, rawBody, headers, want } of cases) {
    it(`${want} for ${given}`, async () => {
      const response = await server.request(method, path, { rawBody, headers });
      expect(response.status).toBe(want);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ type: problemTypes[want], status: want });
      expect(typeof response.body.title).toBe("string");
      expect(typeof response.body.detail).toBe("string");
      expect(response.text).not.toMatch(/at .*\.ts:\d+|node_modules|Error:/);
      if (want === 405) expect(response.headers.get("allow")).toMatch(/GET/);
    });
  }

  it("413 on a chunked body above 1 MiB without buffering it all", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${server.url}/v2/deployments`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Api-Key": "dk_demo_acme_5f2b9c7e1d3a4b6c8e0f",
          "Transfer-Encoding": "chunked",
        },
      });
      request.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once("drain", pump);
        }
        request.end();
      };
      pump();
    });
    expect(status).toBe(413);
  });

  /** Sends `head`, then a body of `bytes` spaces on one raw socket, its second half 100 ms later; what came back, or the socket's error. */
  const rawExchange = (head: string, bytes: number) =>
    new Promise<{ answer: string; error?: string }>((resolve) => {
      // half-open, as a client that sends its whole body before it reads: the server's FIN does not end the sending
      const socket = net.connect({ port: Number(new URL(server.url).port), host: "127.0.0.1", allowHalfOpen: true });
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("error", (error) =>
        resolve({ answer: Buffer.concat(chunks).toString("latin1"), error: error.message }),
      );
      socket.on("close", () => resolve({ answer: Buffer.concat(chunks).toString("latin1") }));
      socket.write(`${head}Content-Length: ${bytes}\r\nConnection: close\r\n\r\n`);
      socket.write(Buffer.alloc(bytes / 2, 0x20));
      setTimeout(() => socket.end(Buffer.alloc(bytes / 2, 0x20)), 100);
    });

  const closing = [
    {
      given: "a 1.3 MB body refused for its size",
      head: "POST /v2/deployments HTTP/1.1\r\nHost: h\r\nX-Api-Key: dk_demo_acme_5f2b9c7e1d3a4b6c8e0f\r\nContent-Type: application/json\r\n",
      want: 413,
    },
    {
      given: "a 1.3 MB body refused before it is read (no key)",
      head: "POST /v2/deployments HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n",
      want: 401,
    },
  ];
  for (const { given, head, want } of closing)
    it(`answers ${given} on a connection the client closes, without resetting it under the sender (D-443)`, async () => {
      const { answer, error } = await rawExchange(head, 1_300_000);
      expect(error).toBeUndefined();
      expect(answer.startsWith(`HTTP/1.1 ${want} `)).toBe(true);
      expect(answer).toContain("urn:deployment-service:problem:");
    });

  it("accepts a body just under 1 MiB (validated, not refused for size)", async () => {
    const body = bodyFor("internal_template", "big-but-fine") as Record<string, unknown>;
    body.padding = "x".repeat(1024 * 1024 - 200);
    const response = await server.request("POST", "/v2/deployments", { body });
    expect(response.status).toBe(201);
  });

  it("answers OPTIONS on a known path with Allow", async () => {
    const response = await server.request("OPTIONS", "/v2/deployments");
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD");
  });
});

describe("request ids and health", () => {
  it("echoes a sane X-Request-Id and makes one otherwise", async () => {
    const given = await server.request("GET", "/v2/deployments", { headers: { "X-Request-Id": "abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("abc-123");
    const forged = await server.request("GET", "/v2/deployments", { headers: { "X-Request-Id": "a b\tc" } });
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.logs.some((line) => line.includes('"requestId":"abc-123"'))).toBe(true);
  });

  it("GET /healthz needs no key", async () => {
    const response = await server.request("GET", "/healthz", { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", database: "ok" });
  });
});
