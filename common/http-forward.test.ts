/** readBoundedBody: a request body up to its limit, or undefined past it, by Content-Length or by bytes counted (D-472). */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBoundedBody } from "./http-forward.js";

const limit = 10;
let server: Server;
let url: string;

beforeAll(async () => {
  // Answers the body it read, or "too large", and closes the connection on a refusal as the mock's fronts do.
  server = createServer((incoming, outgoing) => {
    void readBoundedBody(incoming, limit).then((body) => {
      if (body === undefined) {
        outgoing.writeHead(413, { connection: "close" });
        outgoing.end("too large");
      } else outgoing.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `pieces` as the body, with their total length or chunked, and reads the answer. */
function send(pieces: string[], chunked: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const length = pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0);
    const outgoing = request(url, {
      method: "POST",
      headers: chunked ? {} : { "Content-Length": String(length) },
    });
    outgoing.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(`${response.statusCode} ${Buffer.concat(chunks).toString("utf8")}`));
    });
    outgoing.once("error", reject);
    for (const piece of pieces) outgoing.write(piece);
    outgoing.end();
  });
}

describe("readBoundedBody", () => {
  const cases = [
    { name: "no body", pieces: [], chunked: false, want: "200 " },
    { name: "exactly the limit, by its length", pieces: ["0123456789"], chunked: false, want: "200 0123456789" },
    { name: "exactly the limit, chunked", pieces: ["01234", "56789"], chunked: true, want: "200 0123456789" },
    { name: "one byte past, by its length", pieces: ["0123456789x"], chunked: false, want: "413 too large" },
    { name: "one byte past, counted in chunks", pieces: ["01234", "56789", "x"], chunked: true, want: "413 too large" },
  ];
  it.each(cases)("$name: $want", async ({ pieces, chunked, want }) => {
    expect(await send(pieces, chunked)).toBe(want);
  });
});
