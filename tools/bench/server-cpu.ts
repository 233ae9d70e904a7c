/**
 * CPU time of a process (user + system, every thread) from /proc/<pid>/stat, so a row's cost does not
 * depend on the load generator's share of the cores; and its minor page faults, a count that does not
 * move with the machine's load (memory the allocator gave back and touched again shows there first).
 */
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

/** What a process has used so far: CPU milliseconds (user + system) and minor page faults. */
export interface ProcessUsage {
  cpuMs: number;
  minorFaults: number;
}

/** The usage in `stat` text: minflt, utime and stime are fields 10, 14 and 15, counted after the command name's closing parenthesis. */
export function usageFromStat(stat: string, hz = ticksPerSecond): ProcessUsage {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / hz, minorFaults: Number(fields[7]) };
}

/** What the process has used so far; undefined when it is gone or /proc is missing. */
export function processUsage(pid: number): ProcessUsage | undefined {
  try {
    return usageFromStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}
