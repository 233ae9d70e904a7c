/**
 * Clients that ask for a page and never read it (D-410): each connection sends its request, reads the first bytes
 * of the answer (its status line) and stops reading, so the server's writes to it stall once the socket buffers
 * are full. Held open until `close`.
 */
import net from "node:net";

/** The open connections and what each was answered. */
interface NonReaders {
  /** Answers by status as read from their status lines; "none" while a connection has had no answer yet. */
  statuses(): Record<string, number>;
  /** How many of them the server has closed (a stalled answer cut, D-350). */
  closedByServer(): number;
  /** Destroys every connection. */
  close(): void;
}

/** Opens `count` connections that each send `GET path` with `apiKey` and read no further than the status line. */
export function openNonReaders(url: string, apiKey: string, path: string, count: number): NonReaders {
  const { hostname, port, host } = new URL(url);
  const sockets: net.Socket[] = [];
  const status: Array<string | undefined> = [];
  let closedByServer = 0;
  let closing = false;
  for (let index = 0; index < count; index++) {
    const socket = net.connect(Number(port), hostname);
    sockets.push(socket);
    socket.on("error", () => {});
    socket.once("data", (chunk: Buffer) => {
      status[index] = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? "unreadable";
      // Never read again: the kernel's buffers fill, then the server's writes stall.
      socket.pause();
    });
    socket.once("close", () => {
      if (!closing) closedByServer += 1;
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Api-Key: ${apiKey}\r\n\r\n`);
  }
  return {
    statuses() {
      const counts: Record<string, number> = {};
      for (let index = 0; index < count; index++) {
        const key = status[index] ?? "none";
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    },
    closedByServer: () => closedByServer,
    close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
