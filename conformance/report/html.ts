/** A self-contained HTML report: it opens on the problems (failures grouped by cause, D-243), then the summary per level and a table filterable by status, failures in <details>. */

import type { RunResult } from "../runner/result.js";
import type { Verdict } from "../runner/verdict.js";
import { htmlEscape } from "./escape.js";
import { coverageSection, warningSection } from "./matrix-html.js";
import type { Problem } from "./problems.js";

function pretty(body: string | undefined): string {
  if (body === undefined || body === "") return "(empty)";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The request and the answer of an exchange, as two <pre> blocks. */
function exchangeBlock(ex: NonNullable<Problem["exchange"]>): string {
  const req = [
    `${ex.request.method} ${ex.request.url}`,
    ...Object.entries(ex.request.headers).map(([k, val]) => `${k}: ${val}`),
    ...(ex.request.body !== undefined ? ["", pretty(ex.request.body)] : []),
  ].join("\n");
  const res = [
    `HTTP ${ex.response.status}`,
    ...Object.entries(ex.response.headers).map(([k, val]) => `${k}: ${val}`),
    "",
    pretty(ex.response.body),
  ].join("\n");
  return `<h4>Request</h4><pre>${htmlEscape(req)}</pre><h4>Response</h4><pre>${htmlEscape(res)}</pre>`;
}

/** The problems section: each problem once, the checks it explains (linked to their rows), one exchange; the first open. */
function problemSection(problems: readonly Problem[], failed: number): string {
  if (problems.length === 0) return "";
  const items = problems
    .map(
      (
        p,
        index,
      ) => `<details class="problem"${index === 0 ? " open" : ""}><summary><span class="level ${p.level}">${p.level}</span> ${htmlEscape(p.statement)} <span class="ref">(${p.checks.length} check${p.checks.length === 1 ? "" : "s"})</span></summary>
<p class="explains">Explains: ${p.checks.map((id) => `<a href="#check-${htmlEscape(id)}">${htmlEscape(id)}</a>`).join(", ")}</p>${p.exchange ? exchangeBlock(p.exchange) : ""}</details>`,
    )
    .join("\n");
  return `<section id="problems"><h2>Problems: ${problems.length} explain the ${failed} failed check${failed === 1 ? "" : "s"}</h2>\n${items}</section>`;
}

function failureBlock(v: Verdict, open: boolean): string {
  const f = v.failure!;
  const ex = f.exchange;
  const parts = [`<p class="why">${htmlEscape(f.message)}</p>`];
  if (ex) parts.push(exchangeBlock(ex));
  if (f.curl) parts.push(`<h4>Reproduce</h4><pre class="curl">${htmlEscape(f.curl)}</pre>`);
  if (f.replay) parts.push(`<h4>Replay</h4><pre class="replay">${htmlEscape(f.replay)}</pre>`);
  return `<details class="failure"${open ? " open" : ""}><summary>Failure details</summary>${parts.join("")}</details>`;
}

function row(v: Verdict, openFirst: boolean): string {
  const mark = v.status === "pass" ? "✓" : v.status === "fail" ? "✗" : "○";
  const detail =
    v.status === "fail"
      ? failureBlock(v, openFirst)
      : v.status === "skip"
        ? `<span class="reason">skipped: ${htmlEscape(v.skipReason ?? "")}</span>`
        : "";
  const created =
    v.created && v.created.length > 0
      ? `<div class="created">created: ${v.created.map((c) => htmlEscape(`${c.kind} ${c.name}`)).join(", ")}</div>`
      : "";
  return `<tr class="check ${v.status}" id="check-${htmlEscape(v.id)}" data-status="${v.status}" data-level="${v.level}">
<td class="mark">${mark}</td><td><span class="level ${v.level}">${v.level}</span></td><td class="id">${htmlEscape(v.id)}</td>
<td><div>${htmlEscape(v.statement)}</div><div class="ref">${htmlEscape(v.specRef)} · ${htmlEscape(v.tags.join(", "))}</div>${detail}${created}</td><td class="dur">${v.durationMs} ms</td></tr>`;
}

/** The HTML document: the problems first, the first one expanded; each check's own failure stays folded in its row. */
export function renderHtml(result: RunResult): string {
  const rows = [...result.verdicts]
    .sort((a, b) => (a.level === b.level ? 0 : a.level === "MUST" ? -1 : 1))
    .map((v) => row(v, false))
    .join("\n");
  const card = (level: "MUST" | "SHOULD") => {
    const s = result.summary[level];
    return `<div class="card ${s.fail > 0 ? "bad" : "good"}" id="summary-${level}"><h2>${level}</h2><p><b>${s.pass}</b> passed · <b>${s.fail}</b> failed · <b>${s.skip}</b> skipped</p></div>`;
  };
  const verdict =
    result.exitCode === 0
      ? "Every selected MUST check passed"
      : result.exitCode === 2
        ? "Not judged: the organization is full (a setup problem: use a fresh one)"
        : "A MUST check failed";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report ${htmlEscape(result.runId)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.4rem;margin:0 0 .3rem} .meta{color:#5b6475;margin-bottom:1rem}
.cards{display:flex;gap:1rem;margin:1rem 0} .card{border-radius:8px;padding:.6rem 1.2rem;border:1px solid #d8dde6;background:#fff;min-width:14rem}
.card h2{margin:.2rem 0;font-size:1.1rem} .card.bad{border-color:#d73a49;background:#fff5f5} .card.good{border-color:#28a745;background:#f3fbf5}
.verdict{font-weight:600} .verdict.bad{color:#b31d28} .verdict.good{color:#1f7a35}
.filters{margin:1rem 0} .filters label{margin-right:1rem}
table{border-collapse:collapse;width:100%;background:#fff} td{border-top:1px solid #e6e9ef;padding:.4rem .5rem;vertical-align:top}
.mark{width:1.5rem;text-align:center;font-weight:700} tr.pass .mark{color:#1f7a35} tr.fail .mark{color:#b31d28} tr.skip .mark{color:#8a93a3}
.id{font-family:ui-monospace,monospace;white-space:nowrap} .ref{color:#6a7385;font-size:12px} .dur{color:#6a7385;white-space:nowrap}
.level{font-size:11px;font-weight:700;padding:1px 6px;border-radius:4px} .level.MUST{background:#ffe3e3;color:#8b1a1a} .level.SHOULD{background:#e6efff;color:#1a3f8b}
pre{background:#f4f6f9;border:1px solid #e1e5eb;padding:.6rem;overflow:auto;max-height:24rem;font-size:12px;white-space:pre-wrap;word-break:break-all}
.why{color:#b31d28;font-weight:600} .reason{color:#6a7385;font-size:12px} .created{color:#6a7385;font-size:12px}
details summary{cursor:pointer;color:#1a3f8b} tr.hidden{display:none}
.problem{border:1px solid #d73a49;background:#fff;border-radius:8px;padding:.4rem .8rem;margin:.5rem 0} .explains{font-size:12px}
.warnings{border:1px solid #d4a72c;background:#fff8e1;border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
#coverage th{font-size:12px;padding:.3rem .5rem;text-align:center} td.cov{text-align:center;font-weight:700}
td.cov.passed{color:#1f7a35} td.cov.failed{color:#b31d28;background:#fff5f5} td.cov.exercised{color:#8a6d00} td.cov.unreached{color:#8a93a3}
tr.dec.failed td{color:#b31d28} tr.dec.unchecked td{color:#8a93a3}
</style></head><body>
<h1>Conformance report</h1>
<div class="meta">Run <b>${htmlEscape(result.runId)}</b> against <code>${htmlEscape(result.target)}</code> · seed ${result.seed} · ${htmlEscape(result.startedAt)} · ${(result.durationMs / 1000).toFixed(1)} s</div>
<div class="verdict ${result.exitCode === 0 ? "good" : "bad"}">${verdict}</div>
${problemSection(result.problems, result.verdicts.filter((v) => v.status === "fail").length)}
<div class="cards">${card("MUST")}${card("SHOULD")}</div>
${warningSection(result.warnings)}
<div class="filters">Show:
<label><input type="checkbox" data-filter="fail" checked> failed</label>
<label><input type="checkbox" data-filter="pass" checked> passed</label>
<label><input type="checkbox" data-filter="skip" checked> skipped</label>
</div>
<table id="checks"><tbody>
${rows}
</tbody></table>
${coverageSection(result.coverage)}
<h2>Created on the target</h2>
<p>${result.created.length} resources, names prefixed <code>cf-${htmlEscape(result.runId)}-</code> (the interface has no delete).</p>
${result.errors.length > 0 ? `<h2>Runner errors</h2><pre>${htmlEscape(result.errors.join("\n"))}</pre>` : ""}
<script>
for (const box of document.querySelectorAll('input[data-filter]')) {
  box.addEventListener('change', () => {
    const shown = new Set([...document.querySelectorAll('input[data-filter]:checked')].map((b) => b.dataset.filter));
    for (const tr of document.querySelectorAll('tr.check')) tr.classList.toggle('hidden', !shown.has(tr.dataset.status));
  });
}
</script>
</body></html>
`;
}
