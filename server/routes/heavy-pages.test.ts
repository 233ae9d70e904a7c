/** D-350, D-410 over HTTP: a heavy page is streamed in slices, checked slice by slice when responses are checked, and its slot is freed however the exchange ends. */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acmeKey, startTestServer, type TestServer } from "../testing/test-server.js";

/** A self-hosted create whose stored text is about `kib` KiB (over inlineTextBytes from 16 KiB on). */
function heavyBody(name: string, kib: number) {
  return {
    name,
    source: "external_container",
    source_config: { custom_url: "https://heavy.example", resource_spec: { labels: { k: "x".repeat(kib * 1024) } } },
    source_revision_config: { image_uri: "registry.example/heavy:1" },
    secrets: [],
  };
}

let streaming: TestServer;
let checking: TestServer;

beforeAll(async () => {
  [streaming, checking] = await Promise.all([
    startTestServer({ hosting: "self_hosted", validateResponses: false }),
    startTestServer({ hosting: "self_hosted", validateResponses: true }),
  ]);
  for (const server of [streaming, checking])
    for (let i = 0; i < 12; i++) {
      const created = await server.request("POST", "/v2/deployments", { body: heavyBody(`heavy-${i}`, 40) });
      expect(created.status, created.text).toBe(201);
    }
});
afterAll(async () => {
  await Promise.all([streaming?.close(), checking?.close()]);
});

const newestFirst = (count: number, from = 11) => Array.from({ length: count }, (_, i) => `heavy-${from - i}`);

/** Sends a GET or HEAD of a page and ends the exchange after `bytes` of the body (all of it when undefined). */
function partialRead(server: TestServer, method: "GET" | "HEAD", bytes?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/v2/deployments?limit=100`, {
      method,
      headers: { "x-api-key": acmeKey },
    });
    request.on("response", (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (bytes !== undefined && read >= bytes) {
          request.destroy();
          resolve(response.statusCode ?? 0);
        }
      });
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a heavy page", () => {
  const cases = [
    { given: "?limit=100", want: { names: newestFirst(12), offset: 12 } },
    { given: "?limit=5&offset=3", want: { names: newestFirst(5, 8), offset: 8 } },
    { given: "?limit=100&name_contains=heavy-1", want: { names: ["heavy-11", "heavy-10", "heavy-1"], offset: 3 } },
  ];
  for (const { given, want } of cases)
    it(`${given}: the same page streamed in chunks, checked or not`, async () => {
      const streamed = await streaming.request("GET", `/v2/deployments${given}`);
      const checked = await checking.request("GET", `/v2/deployments${given}`);
      for (const response of [streamed, checked]) {
        expect(response.status, response.text).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(response.body.resources.map((d: { name: string }) => d.name)).toEqual(want.names);
        expect(response.body.offset).toBe(want.offset);
      }
      // Checked, the page is still sent in slices (D-410); it used to be read whole first, its slot freed before it was sent.
      for (const response of [streamed, checked]) expect(response.headers.get("transfer-encoding")).toBe("chunked");
    });

  it("frees its slot after HEAD requests and clients that leave midway: 40 of them, then a full read", async () => {
    for (let i = 0; i < 20; i++) expect(await partialRead(streaming, "HEAD")).toBe(200);
    for (let i = 0; i < 20; i++) expect(await partialRead(streaming, "GET", 1)).toBe(200);
    // Leaked slots would hold this read in line (two of them) or refuse it (eighteen).
    const page = await streaming.request("GET", "/v2/deployments?limit=100");
    expect(page.status).toBe(200);
    expect(page.body.resources).toHaveLength(12);
  });

  it("cuts the connection and logs when a slice fails after the head was sent, then serves the next read", async () => {
    const store = streaming.store;
    const original = store.listDeploymentTexts.bind(store);
    store.listDeploymentTexts = async () => ({
      count: 2,
      slices: (async function* () {
        yield '{"name":"first"}';
        throw new Error("the database went away");
      })(),
    });
    try {
      await expect(streaming.request("GET", "/v2/deployments?limit=100")).rejects.toThrow();
    } finally {
      store.listDeploymentTexts = original;
    }
    expect(streaming.logs.some((line) => line.includes("a streamed answer failed midway"))).toBe(true);
    expect((await streaming.request("GET", "/v2/deployments?limit=100")).status).toBe(200);
  });

  it("checked, cuts the connection and logs when a later slice breaks the contract, having held one slice at a time (D-410)", async () => {
    const page = await checking.request("GET", "/v2/deployments?limit=1");
    const valid = JSON.stringify(page.body.resources[0]);
    const store = checking.store;
    const original = store.listDeploymentTexts.bind(store);
    store.listDeploymentTexts = async () => ({
      count: 2,
      slices: (async function* () {
        yield valid;
        yield '{"name":"no other field"}';
      })(),
    });
    try {
      await expect(checking.request("GET", "/v2/deployments?limit=100")).rejects.toThrow();
    } finally {
      store.listDeploymentTexts = original;
    }
    expect(checking.logs.some((line) => line.includes("response breaks the contract"))).toBe(true);
    expect((await checking.request("GET", "/v2/deployments?limit=100")).status).toBe(200);
  });
});
