#!/usr/bin/env node
/** The `deployment-conformance` command: runs the CLI with the process's arguments and exits with its code (0, 1 or 2). */
import { main } from "./cli/conformance-command.js";

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${(error as Error).stack ?? String(error)}`);
    process.exit(2);
  },
);
