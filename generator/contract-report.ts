/** Prints classified contract changes grouped by severity, with their impact when known (D-82). */
import type { ContractChange, Severity } from "./contract-classify.js";
import type { Impact } from "./contract-impact.js";

const order: Severity[] = ["breaking", "compatible", "info"];

/** One change on one line: rule id, location, what changed, and the statuses that show it. */
function describeChange(change: ContractChange): string {
  const statuses = change.statuses.length > 0 ? ` [${change.statuses.join(", ")}]` : "";
  const schemas = change.schemas.length > 0 ? ` (${change.schemas.join(" › ")})` : "";
  return `${change.rule} ${change.location}: ${change.detail}${statuses}${schemas}`;
}

/** The readable list: a heading per severity that has changes, each change indented, its impact below it. */
export function formatChanges(
  changes: ContractChange[],
  impacts?: Map<ContractChange, Impact>,
  marks?: Map<ContractChange, string>,
): string {
  if (changes.length === 0) return "no change to operations or schemas\n";
  const lines: string[] = [];
  for (const severity of order) {
    const group = changes.filter((change) => change.severity === severity);
    if (group.length === 0) continue;
    lines.push(`${severity.toUpperCase()} (${group.length})`);
    for (const change of group) {
      const mark = marks?.get(change);
      lines.push(`  ${describeChange(change)}${mark ? `  ← ${mark}` : ""}`);
      const impact = impacts?.get(change);
      if (!impact) continue;
      if (impact.checks.length > 0) lines.push(`      checks: ${impact.checks.join(", ")}`);
      if (impact.examples.length > 0) lines.push(`      examples: ${impact.examples.join("; ")}`);
      if (impact.clientTypes.length > 0) lines.push(`      client types: ${impact.clientTypes.join(", ")}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
