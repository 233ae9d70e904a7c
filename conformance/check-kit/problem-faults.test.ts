import { describe, expect, it } from "vitest";
import type { WireAnswer } from "../target/wire.js";
import { fieldErrorFaults, problemFaults, wireProblemFaults } from "./problem-faults.js";

const type = "urn:deployment-service:problem:malformed-request";
const problem = { type, title: "Malformed request", status: 400, detail: "Host is required" };
const json = "application/problem+json";

describe("problemFaults", () => {
  it.each([
    { given: { status: 400, contentType: json, body: problem }, want: [] },
    { given: { status: 400, contentType: `${json}; charset=utf-8`, body: problem }, want: [] },
    {
      given: { status: 400, contentType: "application/json", body: problem },
      want: ["Content-Type is 'application/json', expected application/problem+json"],
    },
    { given: { status: 400, contentType: json, body: undefined }, want: ["the body is not a JSON object"] },
    { given: { status: 400, contentType: json, body: [problem] }, want: ["the body is not a JSON object"] },
    {
      given: { status: 400, contentType: json, body: { ...problem, detail: "" } },
      want: ["the problem has no detail string"],
    },
    {
      given: { status: 431, contentType: json, body: problem },
      want: ["the problem's status 400 differs from the HTTP status 431"],
    },
    {
      given: { status: 400, contentType: json, body: { ...problem, type: "about:blank" } },
      want: ['the problem type "about:blank" is not one of the ProblemType values'],
    },
  ])("$given.contentType, $given.body: $want", ({ given, want }) => {
    expect(problemFaults(given.status, given.contentType, given.body)).toEqual(want);
  });
});

describe("wireProblemFaults", () => {
  it.each<{ given: Omit<WireAnswer, "status">; want: string[] }>([
    { given: { headers: { "content-type": json }, body: JSON.stringify(problem) }, want: [] },
    {
      given: { headers: { "content-type": json }, body: "<html>Bad Request</html>" },
      want: ["the body is not a JSON object"],
    },
    {
      given: { headers: {}, body: JSON.stringify(problem) },
      want: ["Content-Type is '', expected application/problem+json"],
    },
  ])("$given.headers, $given.body: $want", ({ given, want }) => {
    expect(wireProblemFaults({ status: 400, ...given })).toEqual(want);
  });
});

describe("fieldErrorFaults", () => {
  it.each<{ given: unknown; want: string[] }>([
    { given: problem, want: [] },
    { given: { ...problem, errors: [] }, want: [] },
    { given: { ...problem, errors: [{ parameter: "limit", detail: "must be at most 100" }] }, want: [] },
    { given: { ...problem, errors: [{ pointer: "/name", detail: "is required" }] }, want: [] },
    { given: { ...problem, errors: [null] }, want: ["errors/0 must be object"] },
    { given: { ...problem, errors: "limit" }, want: ["errors must be array"] },
    {
      given: { ...problem, errors: [{ parameter: "limit" }] },
      want: ["errors/0 must have required property 'detail'"],
    },
    {
      given: { ...problem, errors: [{ detail: "x" }, { parameter: 1, detail: "y" }] },
      want: ["errors/1/parameter must be string"],
    },
    { given: undefined, want: [] },
  ])("$given: $want", ({ given, want }) => {
    expect(fieldErrorFaults(given)).toEqual(want);
  });
});
