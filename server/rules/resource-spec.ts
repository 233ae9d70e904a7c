/** cpu fields of the resource spec (D-04: cores, fractional, rounded to one decimal; an unset limit defaults to twice the request). */
import type { ResourceSpec } from "../../generated/client.js";

/** Workload prefixes whose `<prefix>cpu` and `<prefix>cpu_limit` pair up. */
const cpuPrefixes = ["", "queue_", "orchestrator_", "executor_", "cache_", "db_"] as const;

export function roundCpu(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The spec as stored and returned: cpu values rounded, missing limits filled from their requests. */
export function normalizeResourceSpec(spec: ResourceSpec): ResourceSpec {
  const result: Record<string, unknown> = { ...spec };
  for (const prefix of cpuPrefixes) {
    const requestKey = `${prefix}cpu`;
    const limitKey = `${prefix}cpu_limit`;
    const request = result[requestKey];
    const limit = result[limitKey];
    if (typeof request === "number") result[requestKey] = roundCpu(request);
    if (typeof limit === "number") result[limitKey] = roundCpu(limit);
    else if (typeof request === "number") result[limitKey] = roundCpu(2 * roundCpu(request));
  }
  return result as ResourceSpec;
}
