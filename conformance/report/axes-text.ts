/** The coverage axes of the properties (method × answer class, character class × field, filter × value class) as console lines and HTML tables. */
import type { AxisCoverage } from "../coverage/axes.js";
import { htmlEscape } from "./escape.js";

const marks = { passed: "✓", failed: "✗", unreached: "·" } as const;

/** Short column heads: the part after the last dot of a field, the first word of a value class. */
const head = (column: string) => column.replace(/^.*\./, "").replace(/ \(.*\)$/, "");

/** One block per axis: a header line, one line per row, and the count of its empty cells. */
export function renderAxes(axes: readonly AxisCoverage[]): string[] {
  const lines: string[] = [];
  for (const axis of axes) {
    const width = Math.max(...axis.rows.map((r) => r.length), 4);
    const widths = axis.columns.map((c) => Math.max(head(c).length, 1));
    lines.push(
      "",
      `${axis.name}`,
      `${"".padEnd(width)}  ${axis.columns.map((c, i) => head(c).padStart(widths[i]!)).join(" ")}`,
    );
    axis.rows.forEach((row, r) => {
      const cells = axis.cells[r]!.map((state, c) => marks[state].padStart(widths[c]!));
      lines.push(`${row.padEnd(width)}  ${cells.join(" ")}`);
    });
    const empty = axis.cells.flat().filter((s) => s === "unreached").length;
    lines.push(
      `(${axis.cells.flat().length - empty} of ${axis.cells.flat().length} cells judged by a property; · empty)`,
    );
  }
  return lines;
}

/** The same axes as HTML tables for report.html. */
export function axesSection(axes: readonly AxisCoverage[]): string {
  return axes
    .map((axis) => {
      const th = `<tr><th></th>${axis.columns.map((c) => `<th>${htmlEscape(c)}</th>`).join("")}</tr>`;
      const rows = axis.rows.map(
        (row, r) =>
          `<tr><td><code>${htmlEscape(row)}</code></td>${axis.cells[r]!.map((s) => `<td class="cov ${s}">${marks[s]}</td>`).join("")}</tr>`,
      );
      return `<h3>${htmlEscape(axis.name)}</h3><table class="axis"><thead>${th}</thead><tbody>${rows.join("\n")}</tbody></table>`;
    })
    .join("\n");
}
