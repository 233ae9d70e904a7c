/** Console output of a run: one line per check (a failure's details in its place, or alone with --quiet), MUST and SHOULD summaries apart. */

import { missingSetup, noVerdict } from "../coverage/warnings.js";
import type { RunResult } from "../result.js";
import type { Verdict } from "../verdict.js";
import { renderAxes } from "./axes-text.js";
import { renderMatrix } from "./matrix-text.js";

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s);
const green = (s: string) => paint(32, s);
const red = (s: string) => paint(31, s);
const dim = (s: string) => paint(2, s);
const bold = (s: string) => paint(1, s);
const yellow = (s: string) => paint(33, s);

/** The line of one check: `✓ [MUST] DEP-LIST-007 statement`. */
function checkLine(v: Verdict): string {
  const mark = v.status === "pass" ? green("✓") : v.status === "fail" ? red("✗") : dim("○");
  const level = v.level === "MUST" ? "[MUST]  " : "[SHOULD]";
  const tail =
    v.status === "skip" ? dim(` (skipped: ${v.skipReason})`) : v.status === "fail" ? "" : dim(` ${v.durationMs}ms`);
  return `${mark} ${level} ${v.id} ${v.statement}${tail}`;
}

function indent(text: string, by = "      "): string {
  return text
    .split("\n")
    .map((l) => by + l)
    .join("\n");
}

function prettyBody(body: string | undefined): string {
  if (body === undefined || body === "") return "(empty)";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The details of one failure: why, what was sent, what came back, and a curl command. */
function failureDetails(v: Verdict): string {
  const f = v.failure;
  const lines = [
    `${red("✗")} ${bold(`[${v.level}] ${v.id}`)} ${v.statement}`,
    `    spec:   ${v.specRef}`,
    `    why:    ${f?.message ?? "failed"}`,
  ];
  const ex = f?.exchange;
  if (ex) {
    const reqHeaders = Object.entries(ex.request.headers).map(([k, val]) => `${k}: ${val}`);
    const resHeaders = Object.entries(ex.response.headers).map(([k, val]) => `${k}: ${val}`);
    lines.push(
      "    sent:",
      indent(
        [
          `${ex.request.method} ${ex.request.url}`,
          ...reqHeaders,
          ...(ex.request.body !== undefined ? ["", prettyBody(ex.request.body)] : []),
        ].join("\n"),
      ),
    );
    lines.push(
      "    got:",
      indent([`HTTP ${ex.response.status}`, ...resHeaders, "", prettyBody(ex.response.body)].join("\n")),
    );
  }
  if (f?.curl) lines.push("    reproduce:", indent(f.curl));
  if (f?.replay) lines.push("    replay:", indent(f.replay));
  return lines.join("\n");
}

function levelLine(result: RunResult, level: "MUST" | "SHOULD"): string {
  const s = result.summary[level];
  const text = `${level.padEnd(6)}  ${s.pass} passed, ${s.fail} failed, ${s.skip} skipped`;
  return s.fail > 0 ? red(text) : green(text);
}

/** The whole console report. */
export function renderConsole(result: RunResult, options: { quiet?: boolean } = {}): string {
  const out: string[] = [];
  out.push(bold(`Conformance run ${result.runId} against ${result.target} (seed ${result.seed})`), "");
  for (const level of ["MUST", "SHOULD"] as const) {
    const of = result.verdicts.filter((v) => v.level === level);
    if (of.length === 0) continue;
    if (!options.quiet) {
      out.push(bold(`${level} checks`));
      // a failure is printed once: its details stand in its place in the list
      for (const v of of) out.push(v.status === "fail" ? failureDetails(v) : checkLine(v));
      out.push("");
    }
  }
  const failures = result.verdicts.filter((v) => v.status === "fail");
  if (failures.length > 0 && options.quiet) {
    out.push(bold("Failures"), "");
    for (const v of [...failures.filter((f) => f.level === "MUST"), ...failures.filter((f) => f.level === "SHOULD")])
      out.push(failureDetails(v), "");
  }
  for (const e of result.errors) out.push(red(`runner error: ${e}`));
  const created = result.created;
  const byKind: Record<string, number> = {};
  for (const resource of created) byKind[resource.kind] = (byKind[resource.kind] ?? 0) + 1;
  out.push(
    `Created on the target (names prefixed cf-${result.runId}-; the interface has no delete): ${
      created.length === 0
        ? "nothing"
        : Object.entries(byKind)
            .map(([k, n]) => `${n} ${k}${n === 1 ? "" : "s"}`)
            .join(", ")
    }`,
  );
  out.push("", bold("Coverage"), ...renderMatrix(result.coverage), ...renderAxes(result.coverage.axes ?? []));
  if (result.config.failOnUnexercised === true && result.coverage.unexercised.length > 0)
    out.push(red(`Never reached (--fail-on-unexercised, exit 1): ${result.coverage.unexercised.join(", ")}`));
  if (result.warnings.length > 0) out.push("", bold(yellow("Warnings: this run proved little")));
  for (const w of result.warnings) out.push(yellow(`⚠ ${w}`));
  out.push(
    "",
    bold("Summary"),
    levelLine(result, "MUST"),
    levelLine(result, "SHOULD"),
    `Duration ${(result.durationMs / 1000).toFixed(1)} s`,
  );
  const mustFailed = result.verdicts.some((v) => v.level === "MUST" && v.status === "fail") || result.errors.length > 0;
  const mustSkipped = missingSetup(result.verdicts).reduce((n, s) => n + s.count, 0);
  const undecided = noVerdict(result.verdicts).length;
  const notJudged = [
    ...(mustSkipped > 0 ? [`${mustSkipped} MUST checks were skipped for missing setup`] : []),
    ...(undecided > 0 ? [`${undecided} came to no verdict`] : []),
  ];
  out.push(
    result.exitCode === 0
      ? notJudged.length > 0
        ? yellow(`Every MUST check that ran passed; ${notJudged.join("; ")} (see Warnings).`)
        : green("Every selected MUST check passed.")
      : mustFailed
        ? red("A MUST check failed (exit 1).")
        : red("A documented status was never reached (--fail-on-unexercised, exit 1)."),
  );
  return out.join("\n");
}
