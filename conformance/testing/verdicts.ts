/** Verdicts for the suite's own tests: a passing MUST check `X-001` of area `a` that took 1 ms, any field given. */
import type { Verdict } from "../runner/verdict.js";

export function aVerdict(fields: Partial<Verdict> = {}): Verdict {
  return {
    id: "X-001",
    level: "MUST",
    tags: [],
    statement: "",
    specRef: "",
    area: "a",
    status: "pass",
    durationMs: 1,
    ...fields,
  };
}
