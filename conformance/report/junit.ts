/** JUnit XML of a run: one testcase per check, classname = level.area, failure and skipped elements. */
import type { RunResult } from "../runner/result.js";
import type { Verdict } from "../runner/verdict.js";
import { failureText } from "./text.js";

/** Escapes text for XML content and attributes; drops characters XML 1.0 forbids. */
export function xmlEscape(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the class names the control characters XML 1.0 allows
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

function testcase(v: Verdict): string {
  const attrs = `classname="${xmlEscape(`${v.level}.${v.area}`)}" name="${xmlEscape(`${v.id} ${v.statement}`)}" time="${(v.durationMs / 1000).toFixed(3)}"`;
  const props = `<properties><property name="id" value="${xmlEscape(v.id)}"/><property name="level" value="${v.level}"/><property name="tags" value="${xmlEscape(v.tags.join(","))}"/><property name="specRef" value="${xmlEscape(v.specRef)}"/></properties>`;
  if (v.status === "skip")
    return `    <testcase ${attrs}>${props}<skipped message="${xmlEscape(v.skipReason ?? "skipped")}"/></testcase>`;
  if (v.status === "fail") {
    const kind = v.failure?.error ? "error" : "failure";
    return `    <testcase ${attrs}>${props}<${kind} message="${xmlEscape(v.failure?.message ?? "failed")}" type="${v.level}">${xmlEscape(failureText(v))}</${kind}></testcase>`;
  }
  return `    <testcase ${attrs}>${props}</testcase>`;
}

/** The JUnit document: one testsuite per level. */
export function renderJunit(result: RunResult): string {
  const suites = (["MUST", "SHOULD"] as const).map((level) => {
    const of = result.verdicts.filter((v) => v.level === level);
    const failures = of.filter((v) => v.status === "fail" && !v.failure?.error).length;
    const errors = of.filter((v) => v.status === "fail" && v.failure?.error).length;
    const skipped = of.filter((v) => v.status === "skip").length;
    const time = of.reduce((t, v) => t + v.durationMs, 0) / 1000;
    return [
      `  <testsuite name="conformance.${level}" tests="${of.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}" timestamp="${result.startedAt.replace(/Z$/, "")}">`,
      ...of.map(testcase),
      "  </testsuite>",
    ].join("\n");
  });
  const total = result.verdicts.length;
  const failures = result.verdicts.filter((v) => v.status === "fail").length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlEscape(`conformance ${result.runId} ${result.target}`)}" tests="${total}" failures="${failures}" time="${(result.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
