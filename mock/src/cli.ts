#!/usr/bin/env node
import { runMockCommand } from "./mock.js";
/** The `deployment-mock` command: `deployment-mock [flags]` starts a mock, `deployment-mock proxy --upstream URL` the contract proxy. */
import { runProxyCommand } from "./mock-proxy.js";

// Run by npx or an npm script, this process is a child of the `sh` that npm starts, which a signal to npm ends
// without passing it on: the mock stops, as on SIGTERM, once its parent is gone (D-265).
if (process.env.npm_command !== undefined) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
  }, 200).unref();
}

const [first, ...rest] = process.argv.slice(2);
const run = first === "proxy" ? runProxyCommand(rest) : runMockCommand(process.argv.slice(2));
run.catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
