/**
 * Console output of a run: the problems first (failures grouped by cause, each once with the checks it explains,
 * D-243), then one line per check (not with --quiet), each failure's own details only with --verbose, MUST and
 * SHOULD summaries apart.
 */

import { missingSetup, noVerdict } from "../coverage/warnings.js";
import type { RunResult } from "../runner/result.js";
import type { Verdict } from "../runner/verdict.js";
import { rateLimitLine } from "../target/rate-limit.js";
import { targetFullReport } from "../target/target-full.js";
import { renderAxes } from "./axes-text.js";
import { fitConsoleText } from "./console-line.js";
import { renderMatrix } from "./matrix-text.js";
import type { Problem } from "./problems.js";
import { terminalSafeDeep } from "./terminal-text.js";
import { renderUnsent } from "./unsent-text.js";

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

/** Words joined into lines of at most `width` characters, each indented by `by`. */
function wrap(words: string[], by: string, width = 110): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && by.length + line.length + word.length + 2 > width) {
      lines.push(`${by}${line},`);
      line = word;
    } else line = line ? `${line}, ${word}` : word;
  }
  if (line) lines.push(`${by}${line}`);
  return lines;
}

/** A body on one line, cut to `max` characters. */
function oneLine(body: string, max = 160): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || "(empty)";
}

/** One problem: its statement, the checks it explains, one exchange that shows it and how to reproduce it. */
function problemLines(problem: Problem, index: number, result: RunResult): string[] {
  const lines = [`${red("✗")} ${bold(`${index + 1}. [${problem.level}]`)} ${problem.statement}`];
  lines.push(`    explains ${problem.checks.length} check${problem.checks.length === 1 ? "" : "s"}:`);
  lines.push(...wrap(problem.checks, "      "));
  const ex = problem.exchange;
  if (ex) {
    lines.push(`    sent:   ${ex.request.method} ${ex.request.url}`);
    lines.push(`    got:    HTTP ${ex.response.status} ${oneLine(ex.response.body)}`);
  }
  const first = result.verdicts.find((v) => v.id === problem.checks[0]);
  if (first?.failure?.curl) lines.push(`    curl:   ${first.failure.curl.split("\n").join(" ")}`);
  if (first?.failure?.replay) lines.push(`    replay: ${first.failure.replay}`);
  return lines;
}

/** The problems section: none when nothing failed. */
function problemSection(result: RunResult): string[] {
  const problems = result.problems;
  if (problems.length === 0) return [];
  const must = problems.filter((p) => p.level === "MUST").length;
  const failed = result.verdicts.filter((v) => v.status === "fail").length;
  const out = [
    bold(
      `Problems: ${problems.length} (${must} MUST, ${problems.length - must} SHOULD) explain the ${failed} failed check${failed === 1 ? "" : "s"}`,
    ),
    "",
  ];
  for (const [index, problem] of problems.entries()) out.push(...problemLines(problem, index, result), "");
  return out;
}

/** The whole console report. */
export function renderConsole(given: RunResult, options: { quiet?: boolean; verbose?: boolean } = {}): string {
  // what came from the target reaches the terminal with its control characters escaped (D-393)
  const result = terminalSafeDeep(given);
  const out: string[] = [];
  const order = result.config.shuffle === true ? ", shuffled" : "";
  out.push(bold(`Conformance run ${result.runId} against ${result.target} (seed ${result.seed}${order})`), "");
  out.push(...problemSection(result));
  const problemOf = new Map<string, number>();
  result.problems.forEach((p, index) => {
    for (const id of p.checks) problemOf.set(id, index + 1);
  });
  for (const level of ["MUST", "SHOULD"] as const) {
    const of = result.verdicts.filter((v) => v.level === level);
    if (of.length === 0) continue;
    if (!options.quiet) {
      out.push(bold(`${level} checks`));
      // a failure is one line pointing at its problem; its own details come with --verbose
      for (const v of of)
        out.push(
          v.status === "fail"
            ? options.verbose
              ? failureDetails(v)
              : `${checkLine(v)}${problemOf.has(v.id) ? dim(` (problem ${problemOf.get(v.id)})`) : ""}`
            : checkLine(v),
        );
      out.push("");
    }
  }
  const failures = result.verdicts.filter((v) => v.status === "fail");
  if (failures.length > 0 && options.quiet && options.verbose) {
    out.push(bold("Failed checks"), "");
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
  out.push(
    "",
    bold("Coverage"),
    ...renderMatrix(result.coverage),
    ...renderAxes(result.coverage.axes ?? []),
    ...renderUnsent(result.coverage.unsent),
  );
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
    ...[rateLimitLine(result.rateLimits)].filter((line): line is string => line !== undefined),
  );
  const mustFailed = result.verdicts.some((v) => v.level === "MUST" && v.status === "fail") || result.errors.length > 0;
  const mustSkipped = missingSetup(result.verdicts).reduce((n, s) => n + s.count, 0);
  const undecided = noVerdict(result.verdicts).length;
  const notJudged = [
    ...(mustSkipped > 0 ? [`${mustSkipped} MUST checks were skipped for missing setup`] : []),
    ...(undecided > 0 ? [`${undecided} came to no verdict`] : []),
  ];
  const full = targetFullReport(result);
  out.push(
    full
      ? red(full.join("\n"))
      : result.exitCode === 0
        ? notJudged.length > 0
          ? yellow(`Every MUST check that ran passed; ${notJudged.join("; ")} (see Warnings).`)
          : green("Every selected MUST check passed.")
        : mustFailed
          ? red("A MUST check failed (exit 1).")
          : red("A documented status was never reached (--fail-on-unexercised, exit 1)."),
  );
  // a long value is cut and a long line wrapped; the reports keep both whole
  return fitConsoleText(out.join("\n"));
}
