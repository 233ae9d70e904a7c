/** The coverage matrix and the weak-run warnings as HTML sections of report.html. */
import type { CellState, Coverage } from "../coverage/matrix.js";
import { axesSection } from "./axes-text.js";
import { htmlEscape } from "./escape.js";
import { coverageCounts } from "./matrix-text.js";

const marks: Record<CellState, string> = { passed: "✓", failed: "✗", exercised: "~", unreached: "·", unreachable: "-" };

/** Operation rows × status columns; each cell's title names the checks that passed or failed there. */
function statusTable(coverage: Coverage): string {
  const columns = [...new Set(coverage.operations.flatMap((op) => op.statuses.map((s) => s.status)))].sort(
    (a, b) => a - b,
  );
  const head = `<tr><th>Operation</th>${columns.map((c) => `<th>${c}</th>`).join("")}</tr>`;
  const rows = coverage.operations.map((op) => {
    const cells = columns.map((status) => {
      const cell = op.statuses.find((s) => s.status === status);
      if (!cell) return `<td class="cov none"></td>`;
      const title = [
        `${op.operation} ${status}: ${cell.state}, ${cell.requests} requests`,
        ...(cell.failedBy.length > 0 ? [`failed: ${cell.failedBy.join(", ")}`] : []),
        ...(cell.passedBy.length > 0 ? [`passed: ${cell.passedBy.join(", ")}`] : []),
      ].join("\n");
      return `<td class="cov ${cell.state}" title="${htmlEscape(title)}">${marks[cell.state]}</td>`;
    });
    return `<tr><td><code>${htmlEscape(op.operation)}</code><div class="ref">${htmlEscape(`${op.method} ${op.path}`)}</div></td>${cells.join("")}</tr>`;
  });
  return `<table id="coverage"><thead>${head}</thead><tbody>${rows.join("\n")}</tbody></table>`;
}

/** One row per decision: id, level, state, citing checks. */
function decisionTable(coverage: Coverage): string {
  if (coverage.decisions.length === 0) return "";
  const rows = coverage.decisions.map(
    (d) =>
      `<tr class="dec ${d.state}"><td class="id">${htmlEscape(d.id)}</td><td>${d.level}</td><td>${d.state}</td><td class="ref">${htmlEscape(d.checks.join(", "))}</td></tr>`,
  );
  return `<details id="decisions"><summary>Decisions (D-NN)</summary><table><tbody>${rows.join("\n")}</tbody></table></details>`;
}

/** The coverage section. */
export function coverageSection(coverage: Coverage): string {
  const unreached =
    coverage.unexercised.length > 0
      ? `<p class="ref">Never reached: ${htmlEscape(coverage.unexercised.join(", "))}</p>`
      : "";
  return `<h2>Coverage</h2>
<p>${coverageCounts(coverage).map(htmlEscape).join("<br>")}</p>
<p class="ref">✓ passed · ✗ failed · ~ exercised only · · never reached · blank: not documented</p>
${statusTable(coverage)}
${unreached}
${axesSection(coverage.axes ?? [])}
${decisionTable(coverage)}`;
}

/** The weak-run warnings, or nothing. */
export function warningSection(warnings: readonly string[]): string {
  if (warnings.length === 0) return "";
  return `<div class="warnings" id="warnings"><b>This run proved little:</b><ul>${warnings.map((w) => `<li>${htmlEscape(w)}</li>`).join("")}</ul></div>`;
}
