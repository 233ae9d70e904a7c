/** The library entry of the package (`deployment-conformance`): run the suite from a program, read its checks and reports. */

export { allChecks, areas } from "./checks/index.js";
export { main, runConformance } from "./cli/conformance-command.js";
export {
  ConfigError,
  type ConformanceConfig,
  type ConformanceOptions,
  configFromObject,
  type RunConfig,
  resolveConfig,
  usage,
} from "./cli/run-config.js";
export type { Coverage } from "./coverage/matrix.js";
export { renderConsole } from "./report/console.js";
export { type CheckExchange, toHar } from "./report/har.js";
export { writeReports } from "./report/write.js";
export type { Check, CheckContext, CreatedResource, Level, Need, SendRequest } from "./runner/check.js";
export type { LevelSummary, RunResult } from "./runner/result.js";
export { checkTimeoutMs, runCheck, runChecks } from "./runner/runner.js";
export type { Fixtures } from "./runner/runtime.js";
export type { Verdict } from "./runner/verdict.js";
export type { Exchange } from "./target/http-exchange.js";
export { PreflightError, preflight } from "./target/preflight.js";
