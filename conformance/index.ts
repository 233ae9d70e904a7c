/** The library entry of the package (`deployment-conformance`): run the suite from a program, read its checks and reports. */
export type { Check, CheckContext, CreatedResource, Level, Need, SendRequest } from "./check.js";
export { allChecks, areas } from "./checks/index.js";
export { main, runConformance } from "./cli.js";
export {
  ConfigError,
  type ConformanceConfig,
  type ConformanceOptions,
  configFromObject,
  type RunConfig,
  resolveConfig,
  usage,
} from "./config.js";
export type { Coverage } from "./coverage/matrix.js";
export type { Exchange } from "./http.js";
export { PreflightError, preflight } from "./preflight.js";
export { renderConsole } from "./report/console.js";
export { type CheckExchange, toHar } from "./report/har.js";
export { writeReports } from "./report/write.js";
export type { LevelSummary, RunResult } from "./result.js";
export { checkTimeoutMs, type Fixtures, runCheck, runChecks } from "./runner.js";
export type { Verdict } from "./verdict.js";
