#!/usr/bin/env node
// The `deployment-conformance` command of the installed package: registers tsx so the
// TypeScript sources of conformance/ run as shipped, then starts conformance/cli.ts.
import { register } from "tsx/esm/api";

register();
process.env.CONFORMANCE_CLI_MAIN = "1";
await import("../conformance/cli.ts");
