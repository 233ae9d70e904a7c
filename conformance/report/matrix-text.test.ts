/** Tests of the console matrix: one row per operation, a column per documented status, marks by cell state, counts. */
import { describe, expect, it } from "vitest";
import type { Coverage } from "../coverage/matrix.js";
import { renderMatrix } from "./matrix-text.js";

const cell = (status: number, state: "passed" | "failed" | "exercised" | "unreached") => ({
  status,
  state,
  requests: state === "unreached" ? 0 : 1,
  passedBy: [],
  failedBy: [],
});

const coverage: Coverage = {
  operations: [
    {
      operation: "listDeployments",
      method: "GET",
      path: "/v2/deployments",
      statuses: [cell(200, "passed"), cell(401, "failed"), cell(422, "unreached")],
      undocumented: [{ status: 500, requests: 1, checks: ["FUZZ-003"] }],
    },
    {
      operation: "createDeployment",
      method: "POST",
      path: "/v2/deployments",
      statuses: [cell(201, "exercised"), cell(401, "passed")],
      undocumented: [],
    },
  ],
  decisions: [
    { id: "D-13", level: "SHOULD", state: "passed", checks: ["AUTH-001"] },
    { id: "D-14", level: "SHOULD", state: "unchecked", checks: [] },
    { id: "D-16", level: "SHOULD", state: "failed", checks: ["ERR-001", "ERR-002"] },
  ],
  unexercised: ["listDeployments 422"],
};

describe("renderMatrix", () => {
  const lines = renderMatrix(coverage);
  it("has a column per status any operation documents and a mark per documented cell", () => {
    expect(lines.slice(0, 3)).toEqual([
      "operation         200 201 401 422",
      "listDeployments     ✓       ✗   ·",
      "createDeployment        ~   ✓    ",
    ]);
  });
  it("counts cells and decisions and lists undocumented statuses", () => {
    expect(lines).toContain(
      "Statuses: 4 of 5 documented (operation, status) pairs reached: 2 passed, 1 failed, 1 exercised only; 1 never reached; 0 not reachable over HTTP (429 D-350, 500 and 503 D-131)",
    );
    expect(lines).toContain(
      "Decisions: 2 of 3 (D-NN) cited by a check of this run: 1 passed, 1 failed, 0 skipped; 1 not checked",
    );
    expect(lines.slice(-2)).toEqual([
      "Undocumented statuses answered: listDeployments 500 (FUZZ-003)",
      "Decisions with a failing check: D-16 (ERR-001, ERR-002)",
    ]);
  });
});
