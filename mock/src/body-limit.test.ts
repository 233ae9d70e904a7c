/** The mock's Node fronts (the static mock's problem front, the contract proxy) refuse a body past their limit with a 413 problem, by Content-Length and by bytes counted, and never forward it (D-472). */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContractProxy, startContractProxy } from "./mock-proxy.js";
import { startProblemFront } from "./problem-front.js";

const limit = 64;

/** An upstream that answers 200 `{}` and keeps the bodies it received. */
let upstream: Server;
const received: string[] = [];
let front: Server;
let proxy: ContractProxy;
const urls: Record<string, string> = {};

beforeAll(async () => {
  upstream = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      outgoing.writeHead(200, { "content-type": "application/json" });
      outgoing.end("{}");
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // The front in front of a stand-in for Prism: the limit is the front's, before anything is forwarded.
  front = await startProblemFront({ prismUrl: upstreamUrl, host: "127.0.0.1", port: 0, bodyLimitBytes: limit });
  urls["problem front"] = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  proxy = await startContractProxy({ upstream: upstreamUrl, port: 0, bodyLimitBytes: limit });
  urls["contract proxy"] = proxy.url;
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
});

/** POSTs `body` to `url`, with its Content-Length or chunked (in pieces of 16 bytes), and reads the answer. */
function post(url: string, body: string, chunked: boolean): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}/v2/deployments`, {
      method: "POST",
      headers: {
        "X-Api-Key": "k",
        "Content-Type": "application/json",
        ...(chunked ? {} : { "Content-Length": String(Buffer.byteLength(body)) }),
      },
    });
    outgoing.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers["content-type"]),
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    outgoing.once("error", reject);
    if (chunked) for (let at = 0; at < body.length; at += 16) outgoing.write(body.slice(at, at + 16));
    else outgoing.write(body);
    outgoing.end();
  });
}

const within = JSON.stringify({ name: "small" });
const past = JSON.stringify({ name: "x".repeat(limit * 64) });

describe.each(["problem front", "contract proxy"])("the %s", (adapter) => {
  const cases = [
    { name: "a body within the limit, with its length", body: within, chunked: false, want: 200 },
    { name: "a chunked body within the limit", body: within, chunked: true, want: 200 },
    { name: "a body past the limit by its Content-Length", body: past, chunked: false, want: 413 },
    { name: "a chunked body past the limit, by the bytes counted", body: past, chunked: true, want: 413 },
  ];
  it.each(cases)("$name: $want", async ({ body, chunked, want }) => {
    const before = received.length;
    const answer = await post(urls[adapter]!, body, chunked);
    expect(answer.status).toBe(want);
    if (want === 413) {
      expect(answer.type).toBe("application/problem+json");
      expect(JSON.parse(answer.text)).toMatchObject({
        type: "urn:deployment-service:problem:payload-too-large",
        status: 413,
      });
      expect(received.length).toBe(before);
    } else expect(received.slice(before).join("")).toContain("small");
  });
});
