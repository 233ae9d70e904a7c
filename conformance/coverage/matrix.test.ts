/** Tests of the coverage matrix: cell states from given verdicts, undocumented statuses, decision states, the unreached list. */
import { describe, expect, it } from "vitest";
import type { Verdict } from "../runner/verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { aVerdict } from "../testing/verdicts.js";
import { type CellState, computeCoverage } from "./matrix.js";

const ops = [
  { id: "listDeployments", method: "get", path: "/v2/deployments", statuses: [200, 401, 422] },
  { id: "createDeployment", method: "post", path: "/v2/deployments", statuses: [201, 409] },
];
const decisions = [
  { id: "D-13", level: "SHOULD" as const },
  { id: "D-14", level: "SHOULD" as const },
  { id: "D-16", level: "SHOULD" as const },
  { id: "D-40", level: "MUST" as const },
];

function exchange(operation: string, status: number): Exchange {
  return {
    request: { method: "GET", url: "http://h/v2/deployments", headers: {} },
    response: { status, headers: {}, body: "" },
    json: undefined,
    durationMs: 1,
    operation,
  };
}

function verdict(
  id: string,
  status: Verdict["status"],
  specRef: string,
  answers: Verdict["answers"],
  failure?: Exchange,
): Verdict {
  return aVerdict({
    id,
    statement: id,
    specRef,
    status,
    answers,
    ...(failure ? { failure: { message: "x", exchange: failure } } : {}),
  });
}

describe("computeCoverage", () => {
  const verdicts: Verdict[] = [
    verdict("A-001", "pass", "interface-spec: 5", [{ operation: "listDeployments", status: 200, count: 3 }]),
    verdict(
      "A-002",
      "fail",
      "D-16 (422)",
      [
        { operation: "listDeployments", status: 200, count: 1 },
        { operation: "listDeployments", status: 422, count: 1 },
        { operation: "createDeployment", status: 201, count: 1 },
      ],
      exchange("listDeployments", 200),
    ),
    verdict("A-003", "skip", "D-13 to D-14", [
      { operation: "createDeployment", status: 201, count: 2 },
      { operation: "createDeployment", status: 500, count: 1 },
      { status: 404, count: 1 },
    ]),
  ];
  const coverage = computeCoverage(verdicts, ops, decisions);
  const state = (op: string, status: number) =>
    coverage.operations.find((o) => o.operation === op)!.statuses.find((s) => s.status === status)!;

  const cells: { given: [string, number]; want: CellState; requests: number }[] = [
    // a failing check's failure exchange wins over a passing check's hit
    { given: ["listDeployments", 200], want: "failed", requests: 4 },
    // hit by a failing check, but not by its failure exchange: exercised only
    { given: ["listDeployments", 422], want: "exercised", requests: 1 },
    { given: ["listDeployments", 401], want: "unreached", requests: 0 },
    // hit by a failing and a skipped check only
    { given: ["createDeployment", 201], want: "exercised", requests: 3 },
    { given: ["createDeployment", 409], want: "unreached", requests: 0 },
  ];
  for (const c of cells)
    it(`${c.given.join(" ")} is ${c.want}`, () => {
      expect(state(...c.given)).toMatchObject({ state: c.want, requests: c.requests });
    });

  it("names the checks per cell", () => {
    expect(state("listDeployments", 200)).toMatchObject({ passedBy: ["A-001"], failedBy: ["A-002"] });
  });
  it("marks passed when only passing checks hit a status", () => {
    const only = computeCoverage([verdicts[0]!], ops, []);
    expect(only.operations[0]!.statuses[0]).toMatchObject({ status: 200, state: "passed" });
  });
  it("lists undocumented statuses and ignores answers of no operation", () => {
    expect(coverage.operations[1]!.undocumented).toEqual([{ status: 500, requests: 1, checks: ["A-003"] }]);
    expect(coverage.operations[0]!.undocumented).toEqual([]);
  });
  it("lists every unreached documented status", () => {
    expect(coverage.unexercised).toEqual(["listDeployments 401", "createDeployment 409"]);
  });
  it("judges decisions by the checks citing them, ranges included", () => {
    expect(coverage.decisions.map((d) => [d.id, d.state, d.checks])).toEqual([
      ["D-13", "skipped", ["A-003"]],
      ["D-14", "skipped", ["A-003"]],
      ["D-16", "failed", ["A-002"]],
      ["D-40", "unchecked", []],
    ]);
  });
});
