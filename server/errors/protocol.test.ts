/** D-115, D-116, D-119, D-310: the protocol answers as the RFCs say: 401 with WWW-Authenticate, 415 for a content coding, 417, 414, the key trimmed of HTTP whitespace only, unknown query names, secret names. */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyFor } from "../testing/fixtures.js";
import { acmeKey, startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Sends raw bytes on a new connection and resolves with the status line, the headers and the body of the answer. */
function raw(bytes: Buffer | string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head, body });
    });
    socket.write(bytes);
  });
}

describe("protocol answers", () => {
  it("401 carries a WWW-Authenticate challenge", async () => {
    for (const key of [null, "wrong-key"]) {
      const response = await server.request("GET", "/v2/deployments", { key });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('ApiKey realm="deployment-service", header="X-Api-Key"');
    }
  });

  it("trims the key of spaces and tabs only: a trailing no-break space is another key", async () => {
    const request = (key: Buffer) =>
      raw(
        Buffer.concat([
          Buffer.from("GET /v2/deployments HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Api-Key: "),
          key,
          Buffer.from("\r\n\r\n"),
        ]),
      );
    expect((await request(Buffer.from(` ${acmeKey}\t `))).status).toBe(200);
    expect((await request(Buffer.concat([Buffer.from(acmeKey), Buffer.from([0xa0])]))).status).toBe(401);
  });

  it("415 for a request body with a content coding, 200 with identity", async () => {
    const body = JSON.stringify(bodyFor("internal_template", "coded"));
    const coded = await server.request("POST", "/v2/deployments", {
      rawBody: body,
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
    });
    expect(coded.status).toBe(415);
    expect(coded.body).toMatchObject({ type: "urn:deployment-service:problem:unsupported-media-type" });
    expect(coded.body.detail).toContain("Content-Encoding gzip");
    const identity = await server.request("POST", "/v2/deployments", {
      rawBody: body,
      headers: { "Content-Type": "application/json", "Content-Encoding": "identity" },
    });
    expect(identity.status).toBe(201);
  });

  it("417 problem for an Expect other than 100-continue", async () => {
    const answer = await raw("GET /v2/deployments HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(417);
    expect(answer.head.toLowerCase()).toContain("content-type: application/problem+json");
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 417,
      type: "urn:deployment-service:problem:expectation-failed",
    });
  });

  const longTargets = [
    { given: "9 KiB", bytes: 9 * 1024 },
    { given: "16 KiB (over Node's head limit)", bytes: 16 * 1024 },
  ];
  for (const { given, bytes } of longTargets) {
    it(`414 problem for a ${given} target`, async () => {
      const target = `/v2/deployments?name_contains=${"a".repeat(bytes)}`;
      const answer = await raw(
        `GET ${target} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${acmeKey}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(414);
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 414,
        type: "urn:deployment-service:problem:uri-too-long",
      });
    });
  }

  it("422 naming a query parameter the operation does not declare, bracketed or not (D-310)", async () => {
    for (const [query, names] of [
      ["status[]=READY", ["status[]"]],
      ["limit[]=1&status=READY", ["limit[]"]],
      ["statuss=READY&x[a]=1", ["statuss", "x[a]"]],
    ] as const) {
      const response = await server.request("GET", `/v2/deployments?${query}`, { key: acmeKey });
      expect(response.status, query).toBe(422);
      expect(response.body.errors.map((error: { parameter: string }) => error.parameter)).toEqual(names);
    }
    const bracketed = await server.request("GET", "/v2/deployments?status[]=READY", { key: acmeKey });
    expect(bracketed.body.errors[0].detail).toContain("comma-separated");
    expect((await server.request("GET", "/v2/deployments?status=READY&limit=1", { key: acmeKey })).status).toBe(200);
    expect((await server.request("GET", "/v2/auth/providers?limit=1", { key: acmeKey })).status).toBe(422);
  });

  it("422 for a path-like or repeated secret name, naming it", async () => {
    const body = {
      ...bodyFor("internal_template", "secret-names"),
      secrets: [
        { name: "../../etc", value: "v" },
        { name: "TOKEN", value: "v" },
        { name: "TOKEN", value: "w" },
      ],
    };
    const response = await server.request("POST", "/v2/deployments", { body });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      "/secrets/0/name",
      "/secrets/2/name",
    ]);
  });

  it("409 for a deployment name taken in another letter case (D-119)", async () => {
    expect(
      (await server.request("POST", "/v2/deployments", { body: bodyFor("internal_template", "Case-Name") })).status,
    ).toBe(201);
    for (const name of ["case-name", "CASE-NAME"]) {
      const taken = await server.request("POST", "/v2/deployments", { body: bodyFor("internal_template", name) });
      expect(taken.status).toBe(409);
    }
  });
});
