/** D-350: a streamed body goes out whole to a reader, and is cut (its body closed) when the reader stops taking bytes. */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { streamedBody } from "./streamed-body.js";

const part = "x".repeat(256 * 1024);
let server: http.Server | undefined;
afterEach(() => server?.close());

/**
 * A server sending `parts` parts through streamedBody with the given stall, `gapMs` apart; resolves with its URL and how
 * its body ended.
 */
async function serve(parts: number, stall: number, gapMs = 0) {
  let closed = false;
  const log = pino({ level: "silent" });
  server = http.createServer((_request, response) => {
    const body = {
      parts: (async function* () {
        for (let i = 0; i < parts; i++) {
          if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
          yield part;
        }
      })(),
      close: () => {
        closed = true;
      },
    };
    response.setHeader("content-type", "application/json");
    streamedBody(body, response, () => log, stall).pipe(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, closed: () => closed };
}

describe("streamedBody", () => {
  it("sends every part to a reader and closes its body at the end", async () => {
    const { url, closed } = await serve(8, 1_000);
    const text = await (await fetch(url)).text();
    expect(text.length).toBe(8 * part.length);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed()).toBe(true);
  });

  it("sends pipelined answers whole, each waiting its turn for longer than the stall", async () => {
    // three answers on one connection, each 16 parts 50 ms apart (0.8 s): the second and third wait their turn past
    // the 1 s stall, then stream while the socket keeps taking their bytes
    const { url } = await serve(16, 1_000, 50);
    const { port } = new URL(url);
    const received = await new Promise<number>((resolve) => {
      let bytes = 0;
      const socket = net.connect(Number(port), "127.0.0.1", () =>
        socket.write(
          `${"GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2)}GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      );
      socket.on("data", (chunk) => {
        bytes += chunk.length;
      });
      socket.once("close", () => resolve(bytes));
    });
    expect(received).toBeGreaterThan(3 * 16 * part.length);
  });

  it("cuts the connection of a reader that stopped reading, and closes its body", async () => {
    // 256 MiB in all: far more than the socket buffers hold, so the server's writes stall.
    const { url, closed } = await serve(1024, 400);
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(url, (answer) => answer.once("data", () => resolve(answer.pause()))),
    );
    for (let i = 0; i < 100 && !closed(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed()).toBe(true);
    // Read what the buffers held: the answer ends short of its end.
    const ended = new Promise<boolean>((resolve) => response.once("close", () => resolve(response.complete)));
    response.on("error", () => {}).resume();
    expect(await ended).toBe(false);
  });
});
