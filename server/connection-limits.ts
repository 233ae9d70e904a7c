/** Caps on open connections, in all and per client address, so that a flood of connections cannot take every descriptor (D-465, D-466). */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import { endWithProblem } from "./errors/client-errors.js";
import { HttpProblem } from "./errors/http-problem.js";

/** The caps of one server. */
interface ConnectionLimits {
  /** Open connections at most: Node closes the ones beyond as it accepts them, before any byte is read. */
  maxConnections: number;
  /** Open connections from one address at most; 0 for no cap. */
  perAddress: number;
}

/** Seconds a client refused by the per-address cap is asked to wait. */
const retryAfterSeconds = 1;
/** At most one warning a minute that the cap closes connections: the log must not amplify the flood. */
const warnEveryMs = 60_000;

/** Applies the caps to `server`; a connection over the per-address cap is answered 503 with `Retry-After` and closed. */
export function limitConnections(server: Server, limits: ConnectionLimits, logger: Logger): void {
  server.maxConnections = limits.maxConnections;
  let lastWarning = Number.NEGATIVE_INFINITY;
  const warn = (fields: Record<string, unknown>, message: string) => {
    if (performance.now() - lastWarning < warnEveryMs) return;
    lastWarning = performance.now();
    logger.warn(fields, message);
  };
  server.on("drop", () => warn({ maxConnections: limits.maxConnections }, "connection cap reached: closing new ones"));
  if (limits.perAddress === 0) return;

  // The HTTP server's own listener (which attaches the parser) runs only for connections within the cap.
  const httpListeners = server.listeners("connection") as Array<(socket: Socket) => void>;
  server.removeAllListeners("connection");
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    if (count <= limits.perAddress) {
      for (const listener of httpListeners) listener.call(server, socket);
      return;
    }
    warn({ address, perAddress: limits.perAddress }, "per-address connection cap reached: answering 503");
    // What the peer sends is read and dropped, so that closing never resets the connection before it reads the 503.
    socket.on("error", () => socket.destroy());
    socket.resume();
    endWithProblem(
      socket,
      new HttpProblem(
        "serviceUnavailable",
        `Too many open connections from this address (at most ${limits.perAddress}); close some and retry.`,
        undefined,
        { "Retry-After": String(retryAfterSeconds) },
      ),
    );
  });
}
