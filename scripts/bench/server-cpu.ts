/** CPU time of a process (user + system, every thread) from /proc/<pid>/stat, so a row's cost does not depend on the load generator's share of the cores. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc times (USER_HZ); 100 on Linux unless getconf says otherwise. */
const ticksPerSecond = (() => {
  try {
    const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU milliseconds of `stat` text (fields 14 and 15, counted after the command name's closing parenthesis). */
export function cpuMsFromStat(stat: string, hz = ticksPerSecond): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / hz;
}

/** CPU milliseconds the process has used so far; undefined when it is gone or /proc is missing. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return cpuMsFromStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}
