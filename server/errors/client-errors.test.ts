/** Requests Node's HTTP parser rejects, or the pipeline's admission (D-310), still get a problem detail (D-16) [D-76]. */
import { STATUS_CODES } from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Sends raw bytes and resolves to everything the server wrote before closing. */
function sendRaw(raw: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.end(raw);
  });
}

const cases: Array<{ given: string; raw: string | Buffer; want: { status: number; type: string } }> = [
  {
    given: "a method with a space",
    raw: "G ET /v2/deployments HTTP/1.1\r\nHost: x\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "an unknown method",
    raw: "FOO /v2/deployments HTTP/1.1\r\nHost: x\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "a raw non-ASCII byte in the path",
    raw: Buffer.from("GET /v2/d\xffx HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"),
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "Transfer-Encoding with Content-Length",
    raw: "POST /v2/deployments HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "headers above 16 KiB",
    raw: `GET /v2/deployments HTTP/1.1\r\nHost: x\r\nX-Pad: ${"a".repeat(20_000)}\r\n\r\n`,
    want: { status: 431, type: "headers-too-large" },
  },
  {
    given: "a target of 8,192 bytes in headers above 16 KiB (D-115: the target is within its bound)",
    raw: `GET /v2/deployments?name_contains=${"a".repeat(8192 - 30)} HTTP/1.1\r\nHost: x\r\nX-Pad: ${"a".repeat(20_000)}\r\n\r\n`,
    want: { status: 431, type: "headers-too-large" },
  },
  {
    given: "a target of 8,193 bytes in headers above 16 KiB (D-115)",
    raw: `GET /v2/deployments?name_contains=${"a".repeat(8193 - 30)} HTTP/1.1\r\nHost: x\r\nX-Pad: ${"a".repeat(20_000)}\r\n\r\n`,
    want: { status: 414, type: "uri-too-long" },
  },
  {
    given: "a target of 100,000 bytes, whose request line does not end in the head's 16 KiB (D-115)",
    raw: `GET /v2/deployments?name_contains=${"a".repeat(100_000 - 30)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    want: { status: 414, type: "uri-too-long" },
  },
  {
    given: "no Host header",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "two Host headers (D-310)",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "two Host headers on HTTP/1.0 (D-310)",
    raw: "GET /v2/auth/providers HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "a Host field holding a list (D-412)",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nHost: a, b\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "a Host field holding a list without a space (D-412)",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nHost: a,b\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "a Host field with a space in it (D-412)",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "two X-Api-Key lines, each a key of its own (D-397)",
    raw: "GET /v2/auth/providers HTTP/1.1\r\nHost: a\r\nX-Api-Key: one\r\nx-api-key: two\r\nConnection: close\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "an HTTP/0.9 request line, without a version (D-310)",
    raw: "GET /v2/auth/providers\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "an HTTP/0.9 request line followed by a header (D-310)",
    raw: "GET /v2/deployments\r\nX-Api-Key: x\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
  {
    given: "CONNECT",
    raw: "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n",
    want: { status: 400, type: "malformed-request" },
  },
];

describe("malformed HTTP messages", () => {
  for (const { given, raw, want } of cases) {
    it(`${want.status} problem detail for ${given}`, async () => {
      const response = await sendRaw(raw);
      const [head = "", body = ""] = response.split("\r\n\r\n");
      expect(head.split("\r\n")[0]).toBe(`HTTP/1.1 ${want.status} ${STATUS_CODES[want.status]}`);
      expect(head.toLowerCase()).toContain("content-type: application/problem+json");
      const problem = JSON.parse(body) as { type: string; status: number; title: string; detail: string };
      expect(problem).toMatchObject({ type: `urn:deployment-service:problem:${want.type}`, status: want.status });
      expect(problem.detail.length).toBeGreaterThan(0);
    });
  }
});
