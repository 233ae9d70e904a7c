/** What each scenario of `npm run reliability` returns: figures to print and violations. */
export interface ScenarioResult {
  name: string;
  /** Empty when the scenario passed. */
  failures: string[];
  summary: string[];
  skipped?: string;
}
