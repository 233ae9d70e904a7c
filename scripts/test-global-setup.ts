/** vitest's global set-up: the tests that start the reference server as a child process run the built server (D-89), so it is built first when stale. */
import { buildServerIfStale } from "../tools/build/build-server.js";

export default async function setup(): Promise<void> {
  await buildServerIfStale();
}
