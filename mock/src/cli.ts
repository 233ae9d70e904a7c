#!/usr/bin/env node
import { runMockCommand } from "./mock.js";
/** The `deployment-mock` command: `deployment-mock [flags]` starts a mock, `deployment-mock proxy --upstream URL` the contract proxy. */
import { runProxyCommand } from "./mock-proxy.js";

const [first, ...rest] = process.argv.slice(2);
const run = first === "proxy" ? runProxyCommand(rest) : runMockCommand(process.argv.slice(2));
run.catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
