/** Starts a Node HTTP server on a host and port (a free one for 0) and gives its URL and a close that also ends open connections. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A server listening: where, and how to stop it at once. */
interface Listening {
  url: string;
  port: number;
  /** Stops accepting and cuts every open connection, idle or not: for tools, tests and mocks, never for a graceful shutdown. */
  close(): Promise<void>;
}

/** Listens on `host:port`; rejects when the port is taken. */
export async function listen(server: Server, port: number, host: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
