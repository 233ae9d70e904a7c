/** The coverage matrix as console text: operation rows × status columns (✓ passed, ✗ failed, ~ exercised only, · never reached, - not reachable over HTTP) and counts. */
import type { CellState, Coverage } from "../coverage/matrix.js";

const marks: Record<CellState, string> = { passed: "✓", failed: "✗", exercised: "~", unreached: "·", unreachable: "-" };

/** Counts of the cells and of the decisions, one line each. */
export function coverageCounts(coverage: Coverage): string[] {
  const cells = coverage.operations.flatMap((op) => op.statuses);
  const count = (state: CellState) => cells.filter((c) => c.state === state).length;
  const reached = cells.length - count("unreached") - count("unreachable");
  const lines = [
    `Statuses: ${reached} of ${cells.length} documented (operation, status) pairs reached: ${count("passed")} passed, ${count("failed")} failed, ${count("exercised")} exercised only; ${count("unreached")} never reached; ${count("unreachable")} not reachable over HTTP (429 D-350, 500 and 503 D-131)`,
  ];
  if (coverage.decisions.length > 0) {
    const of = (state: string) => coverage.decisions.filter((d) => d.state === state).length;
    const cited = coverage.decisions.length - of("unchecked");
    lines.push(
      `Decisions: ${cited} of ${coverage.decisions.length} (D-NN) cited by a check of this run: ${of("passed")} passed, ${of("failed")} failed, ${of("skipped")} skipped; ${of("unchecked")} not checked`,
    );
  }
  return lines;
}

/** The compact matrix, the counts, and the statuses never reached and the undocumented ones. */
export function renderMatrix(coverage: Coverage): string[] {
  const columns = [...new Set(coverage.operations.flatMap((op) => op.statuses.map((s) => s.status)))].sort(
    (a, b) => a - b,
  );
  const width = Math.max(...coverage.operations.map((op) => op.operation.length), 9);
  const lines = [`${"operation".padEnd(width)}  ${columns.map((c) => String(c).padStart(3)).join(" ")}`];
  for (const op of coverage.operations) {
    const cells = columns.map((status) => {
      const cell = op.statuses.find((s) => s.status === status);
      return (cell ? marks[cell.state] : " ").padStart(3);
    });
    lines.push(`${op.operation.padEnd(width)}  ${cells.join(" ")}`);
  }
  lines.push(
    "(✓ passed  ✗ failed  ~ exercised only  · never reached  - not reachable over HTTP  blank: not documented)",
    ...coverageCounts(coverage),
  );
  const undocumented = coverage.operations.flatMap((op) =>
    op.undocumented.map((u) => `${op.operation} ${u.status} (${u.checks.join(", ")})`),
  );
  if (undocumented.length > 0) lines.push(`Undocumented statuses answered: ${undocumented.join("; ")}`);
  const failedDecisions = coverage.decisions.filter((d) => d.state === "failed");
  if (failedDecisions.length > 0)
    lines.push(
      `Decisions with a failing check: ${failedDecisions.map((d) => `${d.id} (${d.checks.join(", ")})`).join("; ")}`,
    );
  return lines;
}
