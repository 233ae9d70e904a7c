/** What each scenario of `npm run reliability` returns: figures to print and violations. */
export interface ScenarioResult {
  name: string;
  /** Empty when the scenario passed. */
  failures: string[];
  summary: string[];
  /** Latency targets the run missed: printed, never a failure, since the load generator shares the cores (D-452). */
  missedTargets?: string[];
  skipped?: string;
}
