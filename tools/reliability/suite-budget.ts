/**
 * Budget scenarios of `npm run reliability` (D-460..D-463): the conformance suite, run as a user runs it
 * (`conformance/bin.ts` in a child process, default flags), against a target whose answers are built to exhaust it.
 * huge-answer: after a few small answers, every answer is an 8 MiB JSON array of 2.79 million empty objects; the run
 * ends within `allowedSeconds` under `allowedRssMiB`. slow-target: after a few fast answers, every answer takes 9 s
 * (under the 10 s request timeout); the suite stops the run within `allowedSeconds`, exit 2, saying why.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScenarioResult } from "./scenario.js";
import { runSuiteProcess, type SuiteProcessRun } from "./suite-process.js";

interface BudgetScenarioOptions {
  log(message: string): void;
}

/** Answers sent fast first, so the preflight and the first checks pass as they would against a real target. */
const smallAnswers = 12;

/** The small answer of an interface's path: an empty list of its kind. */
function small(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? "/", "http://target").pathname;
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(path.startsWith("/v2/deployments") ? JSON.stringify({ resources: [], offset: 0 }) : "[]");
}

/** A run of the suite with default flags and the reports it wrote. */
interface SuiteRun extends SuiteProcessRun {
  reports: string[];
}

/** Runs the suite with default flags against `handler`'s target, killed past `killAfterSeconds`. */
async function runSuite(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  killAfterSeconds: number,
): Promise<SuiteRun> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), "suite-budget-"));
  try {
    const flags = ["--base-url", baseUrl, "--api-key", "dk_budget_reliability_key_01", "--report-dir", dir, "--quiet"];
    const run = await runSuiteProcess(flags, killAfterSeconds);
    return { ...run, reports: readdirSync(dir) };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The suite on 8 MiB answers of 2.79 million empty objects: it ends in time, under the memory bound, with reports. */
export async function hugeAnswerScenario(options: BudgetScenarioOptions): Promise<ScenarioResult> {
  const allowedSeconds = 180;
  const allowedRssMiB = 1024;
  // 2,790,000 × "{}," is just under the 8 MiB --max-response-bytes: read whole, then bounded by the values it holds
  const huge = Buffer.from(`[${Array.from({ length: 2_790_000 }, () => "{}").join(",")}]`);
  let answered = 0;
  const run = await runSuite((req, res) => {
    answered += 1;
    if (answered <= smallAnswers) return small(req, res);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(huge.length) });
    res.end(huge);
  }, allowedSeconds * 2);
  options.log(
    `huge-answer: suite exit ${run.exitCode} after ${run.seconds.toFixed(0)} s, peak RSS ${run.peakMiB.toFixed(0)} MiB, ${answered} requests`,
  );
  const failures: string[] = [];
  if (run.seconds > allowedSeconds) failures.push(`the run took ${run.seconds.toFixed(0)} s, over ${allowedSeconds} s`);
  if (run.peakMiB > allowedRssMiB)
    failures.push(`the suite's peak RSS was ${run.peakMiB.toFixed(0)} MiB, over ${allowedRssMiB} MiB`);
  if (run.exitCode !== 1 && run.exitCode !== 2) failures.push(`the suite exited ${run.exitCode}, expected 1 or 2`);
  if (!/max-response-values/.test(run.printed)) failures.push("the console does not name --max-response-values");
  if (!run.reports.includes("results.json")) failures.push("no results.json was written");
  return {
    name: "huge-answer",
    failures,
    summary: [
      `${huge.length} bytes of 2,790,000 empty objects per answer after ${smallAnswers} small ones: exit ${run.exitCode} in ${run.seconds.toFixed(0)} s (allowed ${allowedSeconds}), peak RSS ${run.peakMiB.toFixed(0)} MiB (allowed ${allowedRssMiB}), ${answered} requests`,
    ],
  };
}

/** The suite on a target answering every request in 9 s: stopped with its reason, exit 2, reports written. */
export async function slowTargetScenario(options: BudgetScenarioOptions): Promise<ScenarioResult> {
  const allowedSeconds = 300;
  const answerMs = 9000;
  let answered = 0;
  const pending = new Set<NodeJS.Timeout>();
  const run = await runSuite((req, res) => {
    answered += 1;
    if (answered <= smallAnswers) return small(req, res);
    const timer = setTimeout(() => {
      pending.delete(timer);
      small(req, res);
    }, answerMs);
    pending.add(timer);
  }, allowedSeconds * 2);
  for (const timer of pending) clearTimeout(timer);
  options.log(`slow-target: suite exit ${run.exitCode} after ${run.seconds.toFixed(0)} s, ${answered} requests`);
  const failures: string[] = [];
  if (run.seconds > allowedSeconds) failures.push(`the run took ${run.seconds.toFixed(0)} s, over ${allowedSeconds} s`);
  if (run.exitCode !== 2) failures.push(`the suite exited ${run.exitCode}, expected 2`);
  const said = /the run against \S+ stopped: ([^\n]*)/.exec(run.printed)?.[1];
  if (said === undefined) failures.push("the suite did not say why it stopped");
  if (!run.reports.includes("results.json")) failures.push("no results.json was written");
  return {
    name: "slow-target",
    failures,
    summary: [
      `every answer after the first ${smallAnswers} in ${answerMs} ms: exit ${run.exitCode} in ${run.seconds.toFixed(0)} s (allowed ${allowedSeconds}), ${answered} requests; said: ${said ?? "(nothing)"}`,
    ],
  };
}
