/** Picks a free TCP port on 127.0.0.1 for a child process that cannot listen on port 0 and report it. */
import { createServer } from "node:net";

/** A port that was free a moment ago (the OS hands out ephemeral ports round-robin, so reuse is unlikely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
