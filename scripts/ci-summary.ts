/** Prints the closing line of a CI run, `N passed, N failed, N skipped`, from vitest's JSON report. */
import { readFileSync } from "node:fs";

interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const path = process.argv[2] ?? ".reports/vitest.json";
const report = JSON.parse(readFileSync(path, "utf8")) as VitestJsonReport;
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
process.exit(report.numFailedTests === 0 ? 0 : 1);
