/** The conformance suite run as a user runs it (`conformance/bin.ts` in a child process), against a target of a scenario. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { followPeakRss, repoRoot } from "../harness/reference.js";

/** What one run of the suite showed: its exit code, time, peak RSS and everything it printed. */
export interface SuiteProcessRun {
  exitCode: number | null;
  seconds: number;
  peakMiB: number;
  printed: string;
}

/** Runs the suite with `flags`, killed past `killAfterSeconds` so that a suite that never ends cannot hang the run. */
export async function runSuiteProcess(flags: string[], killAfterSeconds: number): Promise<SuiteProcessRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "conformance", "bin.ts"), ...flags], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let printed = "";
  const keep = (data: Buffer) => {
    printed += data.toString("utf8");
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const peak = followPeakRss(child.pid!, 50);
  const killer = setTimeout(() => child.kill("SIGKILL"), killAfterSeconds * 1000);
  const exitCode = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(killer);
  peak.stop();
  return { exitCode, seconds: (performance.now() - started) / 1000, peakMiB: peak.peakKiB() / 1024, printed };
}
