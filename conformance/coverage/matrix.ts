/** The coverage matrix of a run: per operation × documented status and per decision, what the checks reached and how they fared. */
import type { Verdict } from "../runner/verdict.js";
import { type AxisCoverage, computeAxes } from "./axes.js";
import { citedDecisions, type DecisionRow } from "./decisions.js";
import { type FieldShape, unsentFields } from "./unsent-fields.js";

/**
 * failed: the failure exchange of a failing check got this status; passed: a passing check got it;
 * exercised: only checks that failed elsewhere or were skipped got it; unreached: no exchange got it;
 * unreachable: no exchange got it and no black-box run makes a target answer it (D-131; 429 needs load, D-350).
 */
export type CellState = "passed" | "failed" | "exercised" | "unreached" | "unreachable";

/** Documented statuses a run over HTTP cannot provoke, with the reason (D-131); never counted as unexercised. */
const blackBoxUnreachable: ReadonlyMap<number, string> = new Map([
  [429, "the suite puts no load on a target, and only load is answered 429 (D-113, D-350)"],
  [500, "a run over HTTP cannot make a correct target fail (D-26)"],
  [503, "a run over HTTP cannot take the target's database away (D-81)"],
]);

interface StatusCoverage {
  status: number;
  state: CellState;
  /** Exchanges of the run that got this status from this operation. */
  requests: number;
  passedBy: string[];
  failedBy: string[];
}

export interface OperationCoverage {
  operation: string;
  method: string;
  path: string;
  statuses: StatusCoverage[];
  /** Statuses the target answered that the contract does not document for this operation. */
  undocumented: { status: number; requests: number; checks: string[] }[];
}

/** passed / failed: a check citing the decision ran with that verdict (a failure wins); skipped: every citing check was skipped; unchecked: no check of the run cites it. */
export interface DecisionCoverage {
  id: string;
  level: DecisionRow["level"];
  state: "passed" | "failed" | "skipped" | "unchecked";
  checks: string[];
}

export interface Coverage {
  operations: OperationCoverage[];
  decisions: DecisionCoverage[];
  /** `operationId status` of every documented status no exchange reached. */
  unexercised: string[];
  /** The axes of the properties (PROP-*): method × answer class, character class × field, filter × value class. */
  axes?: AxisCoverage[];
  /** `operationId field` of each request field and query parameter no request sent non-null (D-490). */
  unsent?: string[];
}

/** What the matrix needs of an operation of the contract. */
interface OperationShape extends FieldShape {
  id: string;
  method: string;
  path: string;
  statuses: number[];
}

/**
 * Computes the matrix from the verdicts (their answers, failure exchanges and fields sent), the operations and the
 * decision rows; `sendable` says which request fields the run's target can take (all when unset).
 */
export function computeCoverage(
  verdicts: readonly Verdict[],
  operations: readonly OperationShape[],
  decisions: readonly DecisionRow[],
  sendable?: (operationId: string, field: string) => boolean,
): Coverage {
  const operationRows = operations.map((op): OperationCoverage => {
    const cells = new Map<number, StatusCoverage>(
      op.statuses.map((status) => [status, { status, state: "unreached", requests: 0, passedBy: [], failedBy: [] }]),
    );
    const undocumented = new Map<number, { status: number; requests: number; checks: string[] }>();
    for (const v of verdicts) {
      for (const answer of v.answers ?? []) {
        if (answer.operation !== op.id) continue;
        const cell = cells.get(answer.status);
        if (!cell) {
          const extra = undocumented.get(answer.status) ?? { status: answer.status, requests: 0, checks: [] };
          extra.requests += answer.count;
          if (!extra.checks.includes(v.id)) extra.checks.push(v.id);
          undocumented.set(answer.status, extra);
          continue;
        }
        cell.requests += answer.count;
        if (v.status === "pass" && !cell.passedBy.includes(v.id)) cell.passedBy.push(v.id);
      }
      const failed = v.status === "fail" ? v.failure?.exchange : undefined;
      if (failed?.operation === op.id) {
        const cell = cells.get(failed.response.status);
        if (cell && !cell.failedBy.includes(v.id)) cell.failedBy.push(v.id);
      }
    }
    for (const cell of cells.values())
      cell.state =
        cell.failedBy.length > 0
          ? "failed"
          : cell.passedBy.length > 0
            ? "passed"
            : cell.requests > 0
              ? "exercised"
              : blackBoxUnreachable.has(cell.status)
                ? "unreachable"
                : "unreached";
    return {
      operation: op.id,
      method: op.method.toUpperCase(),
      path: op.path,
      statuses: [...cells.values()],
      undocumented: [...undocumented.values()].sort((a, b) => a.status - b.status),
    };
  });
  const decisionRows = decisions.map((row): DecisionCoverage => {
    const citing = verdicts.filter((v) => citedDecisions(v.specRef).includes(row.id));
    const state = citing.some((v) => v.status === "fail")
      ? "failed"
      : citing.some((v) => v.status === "pass")
        ? "passed"
        : citing.length > 0
          ? "skipped"
          : "unchecked";
    return { id: row.id, level: row.level, state, checks: citing.map((v) => v.id) };
  });
  const unexercised = operationRows.flatMap((op) =>
    op.statuses.filter((s) => s.state === "unreached").map((s) => `${op.operation} ${s.status}`),
  );
  return {
    operations: operationRows,
    decisions: decisionRows,
    unexercised,
    axes: computeAxes(verdicts),
    unsent: unsentFields(verdicts, operations, sendable),
  };
}
