/**
 * cpu fields of the resource spec (D-04: cores, fractional, rounded to one decimal; an unset limit defaults to twice the
 * request, at most the schema's maximum) and the relations JSON Schema cannot state (D-134).
 */
import type { ProblemFieldError, ResourceSpec } from "../../contract/schemas.js";

/** Workload prefixes whose `<prefix>cpu` and `<prefix>cpu_limit` pair up. */
const cpuPrefixes = ["", "queue_", "orchestrator_", "executor_", "cache_", "db_"] as const;

/** Workload prefixes whose `<prefix>min_scale` and `<prefix>max_scale` pair up. */
const scalePrefixes = ["", "queue_", "orchestrator_"] as const;

/** The schema's maximum of every cpu field (D-133); a defaulted limit never exceeds it. */
const cpuMaximum = 128;

/** Every (lower, upper) pair of the spec: min_scale ≤ max_scale, a request ≤ its limit (D-134). */
const orderedPairs: ReadonlyArray<readonly [keyof ResourceSpec, keyof ResourceSpec]> = [
  ...scalePrefixes.map((prefix) => [`${prefix}min_scale`, `${prefix}max_scale`] as const),
  ...cpuPrefixes.map((prefix) => [`${prefix}cpu`, `${prefix}cpu_limit`] as const),
  ...cpuPrefixes.map((prefix) => [`${prefix}memory_mb`, `${prefix}memory_limit_mb`] as const),
] as ReadonlyArray<readonly [keyof ResourceSpec, keyof ResourceSpec]>;

/** One field error per pair whose lower value exceeds its upper value, as sent (before rounding), pointing at the lower one. */
export function checkResourceRelations(spec: ResourceSpec, at: string): ProblemFieldError[] {
  const errors: ProblemFieldError[] = [];
  for (const [lower, upper] of orderedPairs) {
    const low = spec[lower];
    const high = spec[upper];
    if (typeof low === "number" && typeof high === "number" && low > high)
      errors.push({ pointer: `${at}/${lower}`, detail: `must be at most ${upper} (${high})` });
  }
  return errors;
}

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
    else if (typeof request === "number") result[limitKey] = Math.min(cpuMaximum, roundCpu(2 * roundCpu(request)));
  }
  return result as ResourceSpec;
}
