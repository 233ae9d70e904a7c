/** Tests of answersOf: one entry per (operation, status) with its count, exchanges of no operation kept apart. */
import { expect, it } from "vitest";
import { answersOf } from "./answer-counts.js";

it("counts exchanges per operation and status", () => {
  const given = [
    { operation: "listDeployments", response: { status: 200 } },
    { response: { status: 404 } },
    { operation: "listDeployments", response: { status: 200 } },
    { operation: "listDeployments", response: { status: 422 } },
  ].map((e) => ({ ...e, response: { ...e.response, headers: {}, body: "" } }));
  expect(answersOf(given)).toEqual([
    { operation: "listDeployments", status: 200, count: 2 },
    { status: 404, count: 1 },
    { operation: "listDeployments", status: 422, count: 1 },
  ]);
});
