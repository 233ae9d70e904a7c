/** Per-source rules of deployment creation (D-48): the table of contract/source-rules.ts (D-200) applied to a body; a broken rule is 400. */

import type { DeploymentCreate } from "../../contract/schemas.js";
import { readField, type SourceField, sourceFields } from "../../contract/source-rules.js";
import { HttpProblem } from "../errors/http-problem.js";

/** One broken rule: the JSON Pointer of the field and what is wrong with it. */
export interface RuleViolation {
  field: string;
  pointer: string;
  detail: string;
}

function pointerOf(field: string): string {
  return `/${field.split(".").join("/")}`;
}

/** The detail of a forbidden value: the table's wording for the field, or the usual one. */
function forbiddenDetail(row: SourceField, source: string): string {
  return (row.forbiddenDetail ?? "is not applicable to '{source}' source").replace("{source}", source);
}

/** Every rule of the table the body breaks: the missing required fields, then the forbidden ones, each in table order. */
export function checkSourceRules(body: DeploymentCreate): RuleViolation[] {
  const missing: RuleViolation[] = [];
  const forbidden: RuleViolation[] = [];
  for (const row of sourceFields) {
    const rule = row.rules[body.source];
    const value = readField(body, row.field);
    const absent = value === undefined || value === null;
    if (rule === "R" && (absent || (typeof value === "string" && value.trim() === ""))) {
      missing.push({
        field: row.field,
        pointer: pointerOf(row.field),
        detail: `is required for '${body.source}' source`,
      });
    } else if (rule === "F" && !absent) {
      forbidden.push({ field: row.field, pointer: pointerOf(row.field), detail: forbiddenDetail(row, body.source) });
    }
  }
  return [...missing, ...forbidden];
}

/** The 400 of broken source rules, naming each field (D-47: "Source configuration error: '<field>' <detail>"). */
export function sourceRuleProblem(violations: RuleViolation[], headline?: string): HttpProblem {
  const first = violations[0]!;
  const detail =
    `Source configuration error: ${headline ?? `'${first.field}' ${first.detail}`}` +
    (violations.length > 1 ? ` (and ${violations.length - 1} more; see errors)` : "");
  return new HttpProblem(
    "sourceRule",
    detail,
    violations.map((violation) => ({ pointer: violation.pointer, detail: violation.detail })),
  );
}
