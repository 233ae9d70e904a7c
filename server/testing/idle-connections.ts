/** Connection floods for tests and the reliability run: connections that never send a byte, and a process's open descriptors. */
import { readdirSync } from "node:fs";
import net from "node:net";

/** What one idle connection saw before the server closed it: the status line's code, or none. */
export interface IdleOutcome {
  status: number | undefined;
  retryAfter: string | undefined;
}

/** A flood: each outcome resolves when the server closes its connection (the client never does until `destroy`). */
export interface IdleFlood {
  outcomes: Array<Promise<IdleOutcome>>;
  destroy(): void;
}

/** Opens `count` connections to `url` from `localAddress` (another loopback address on Linux, e.g. 127.0.0.2). */
export function openIdleConnections(url: string, count: number, localAddress: string): IdleFlood {
  const { hostname, port } = new URL(url);
  const sockets: net.Socket[] = [];
  const outcomes = Array.from(
    { length: count },
    () =>
      new Promise<IdleOutcome>((resolve) => {
        let received = "";
        const socket = net.connect({ host: hostname, port: Number(port), localAddress });
        sockets.push(socket);
        socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
        // A refused or reset connection is an outcome too (no status).
        socket.on("error", () => undefined);
        socket.on("close", () => {
          const status = /^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1];
          const retryAfter = /\r\nRetry-After: (\S+)\r\n/i.exec(received)?.[1];
          resolve({ status: status === undefined ? undefined : Number(status), retryAfter });
        });
      }),
  );
  return {
    outcomes,
    destroy: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Outcomes counted by kind: `408`, `503 Retry-After 1`, `closed` (no answer). */
export function tallyOutcomes(outcomes: IdleOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, retryAfter } of outcomes) {
    const key = status === undefined ? "closed" : status === 503 ? `503 Retry-After ${retryAfter}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The open descriptors of a process (Linux). */
export const descriptorCount = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;
