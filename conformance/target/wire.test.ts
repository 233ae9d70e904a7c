/** One connection held open by hand: requests written as given (origin- or absolute-form), answers read by framing. */
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../common/listen.js";
import { WireConnection } from "./wire.js";

const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url}`);
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify({ target: req.url }));
});
let base = "";
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  ({ url: base, close } = await listen(server, 0, "127.0.0.1"));
});
afterAll(() => close());

describe("WireConnection", () => {
  it.each([
    { given: { method: "GET", target: "/v2/auth/providers" }, want: "/base/v2/auth/providers" },
    { given: { method: "GET", target: "/v2/auth/providers", absolute: true }, want: "/base/v2/auth/providers" },
  ])("writes $given.target (absolute: $given.absolute) on the wire", async ({ given, want }) => {
    const connection = await WireConnection.open(`${base}/base`, 2000);
    try {
      connection.write([{ ...given, headers: {} }]);
      const answer = await connection.read(given.method);
      expect(answer.status).toBe(200);
      const target = seen.at(-1)!.slice("GET ".length);
      expect(given.absolute ? new URL(target).pathname : target).toBe(want);
      expect(target.startsWith("http://")).toBe(given.absolute === true);
    } finally {
      connection.close();
    }
  });

  it("reads pipelined answers in order, none after a HEAD", async () => {
    const connection = await WireConnection.open(base, 2000);
    try {
      connection.write([
        { method: "GET", target: "/a", headers: {} },
        { method: "HEAD", target: "/b", headers: {} },
        { method: "GET", target: "/c", headers: {} },
      ]);
      const bodies = [];
      for (const method of ["GET", "HEAD", "GET"]) bodies.push((await connection.read(method)).body);
      expect(bodies).toEqual(['{"target":"/a"}', "", '{"target":"/c"}']);
    } finally {
      connection.close();
    }
  });
});
