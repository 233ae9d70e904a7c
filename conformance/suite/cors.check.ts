/** Runs the cors checks (conformance/checks/index.ts) through vitest; started by conformance/cli.ts. */
import { areas } from "../checks/index.js";
import { defineArea } from "./define.js";

defineArea("cors", areas.cors);
