/**
 * A streamed body (D-350) as a Node byte stream: it reads its next part only once the socket has taken the last
 * (Koa pipes it, and destroys it when the response ends or the client goes, which closes the body), and it cuts a
 * response whose socket has taken no byte for `stallMs`, so a client that stops reading frees its slot.
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import type { StreamedBody } from "../pipeline/exchange.js";

/** How long a streamed answer may go without its socket taking a byte (nginx's `send_timeout` is 60 s too). */
const stallMs = 60_000;

/** The stream Koa sends; `response` is the answer it is piped into. */
export function streamedBody(
  body: StreamedBody,
  response: ServerResponse,
  log: () => Logger,
  stall = stallMs,
): Readable {
  const stream = Readable.from(body.parts, { objectMode: false, highWaterMark: 64 * 1024 });
  // What the client took: the bytes the socket handed to the kernel (written less those still queued in it, which a
  // finished body's last parts sit in while a slow reader drains them). The socket is read at each check: a pipelined
  // answer gets its socket only when the answers before it are done.
  const taken = () => {
    const socket = response.socket;
    return socket ? socket.bytesWritten - socket.writableLength : undefined;
  };
  let last = taken();
  let idleChecks = 0;
  // Checked four times per `stall`: a response is cut between 1 and 5/4 of it after its socket last took a byte, and
  // never while it waits its turn behind another answer on the same connection.
  const watch = setInterval(() => {
    const now = taken();
    if (now === undefined || now !== last) {
      last = now;
      idleChecks = 0;
    } else if (++idleChecks >= 4) {
      log().warn({ stallMs: stall }, "a streamed answer stalled: the client took no byte, the connection is cut");
      stream.destroy();
      response.destroy();
    }
  }, stall / 4);
  watch.unref();
  stream.once("close", () => {
    clearInterval(watch);
    body.close();
  });
  // A part that fails after the head was sent cannot become a problem answer: the connection is cut, so the
  // client sees a truncated body rather than a complete-looking one.
  stream.once("error", (error) => {
    log().error({ err: error }, "a streamed answer failed midway");
    response.destroy();
  });
  return stream;
}
