/** Problem details for requests Node's HTTP parser rejects before Koa sees them (D-16) [D-76, D-115]. */
import http from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { HttpProblem } from "./http-problem.js";
import { maxTargetBytes } from "./target-limit.js";

/**
 * Answers malformed HTTP messages (bad request line or method, bad framing, oversized headers,
 * timeouts) and CONNECT with a problem detail instead of Node's bare status line or a closed socket.
 */
export function answerClientErrors(server: http.Server, logger: Logger): void {
  server.on("clientError", (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    // A peer that already went away cannot be answered.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    logger.debug({ code: error.code }, "rejected a malformed request");
    const problem =
      error.code === "HPE_HEADER_OVERFLOW" && requestTargetTooLong(error.rawPacket)
        ? new HttpProblem("uriTooLong", `The request target is longer than ${maxTargetBytes} bytes.`)
        : clientErrorProblem(error.code);
    endWithProblem(socket, problem);
  });
  // RFC 9110 §10.1.1: an expectation other than 100-continue cannot be met (417); answered as a problem (D-115).
  server.on("checkExpectation", (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const problem = new HttpProblem(
      "expectationFailed",
      "The only expectation this server meets is Expect: 100-continue; send the request without the other.",
    );
    const body = JSON.stringify(problem.toProblem());
    response.writeHead(problem.status, {
      "Content-Type": "application/problem+json",
      "Content-Length": Buffer.byteLength(body),
      Connection: "close",
    });
    response.end(body);
  });
  server.on("connect", (_request: http.IncomingMessage, socket: Duplex) => {
    endWithProblem(
      socket,
      new HttpProblem("malformedRequest", "CONNECT is not supported: this server is not a proxy."),
    );
  });
}

/**
 * Whether the received bytes of an oversized head show a request target longer than the bound, or a request line that
 * does not end in them: the target alone, between the method's space and the version's, is held to 8 KiB (D-115).
 */
function requestTargetTooLong(received: Buffer | undefined): boolean {
  if (!received) return false;
  const end = received.indexOf("\r\n");
  if (end === -1) return true;
  const line = received.subarray(0, end);
  return line.lastIndexOf(" ") - line.indexOf(" ") - 1 > maxTargetBytes;
}

/** The problem for one of Node's client error codes. */
function clientErrorProblem(code: string | undefined): HttpProblem {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new HttpProblem("headersTooLarge", "The request headers are larger than 16 KiB.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new HttpProblem("requestTimeout", "The request did not arrive completely in time.");
    default:
      return new HttpProblem(
        "malformedRequest",
        "The request is not a well-formed HTTP/1.1 message (request line, method, headers or framing).",
      );
  }
}

/** How long a socket answered here stays open for its peer to read the answer and close first. */
const lingerMs = 1_000;

/**
 * Writes the problem as a complete HTTP/1.1 response straight to the socket, ends it, and destroys it after a
 * short linger: Node's HTTP sockets allow half-open, so an end alone keeps the descriptor for as long as a peer
 * that never closes stays connected (an idle connection's 408 kept it for ever before D-467).
 */
export function endWithProblem(socket: Duplex, problem: HttpProblem): void {
  const body = JSON.stringify(problem.toProblem());
  const extra = Object.entries(problem.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status] ?? "Error"}\r\n` +
      "Content-Type: application/problem+json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      extra.join("") +
      "Connection: close\r\n\r\n" +
      body,
  );
  const linger = setTimeout(() => socket.destroy(), lingerMs);
  linger.unref();
  socket.once("close", () => clearTimeout(linger));
}
