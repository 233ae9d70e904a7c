/** Tests of grouping failures by cause: one bug seen by many checks is one problem, two bugs are two. */
import { describe, expect, it } from "vitest";
import type { Verdict } from "../runner/verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { aVerdict } from "../testing/verdicts.js";
import { causeOf, groupProblems, normalize } from "./problems.js";

const exchange = (method: string, url: string, status: number, operation?: string): Exchange => ({
  request: { method, url, headers: {} },
  response: { status, headers: {}, body: "{}" },
  json: {},
  durationMs: 1,
  ...(operation ? { operation } : {}),
});

const failed = (id: string, level: Verdict["level"], message: string, ex?: Exchange): Verdict =>
  aVerdict({ id, level, status: "fail", failure: { message, ...(ex ? { exchange: ex } : {}) } });

const createAnswer = exchange("POST", "http://h/v2/deployments", 201, "createDeployment");
const listAnswer = exchange("GET", "http://h/v2/deployments?limit=20", 200, "listDeployments");
const limitZero = exchange("GET", "http://h/v2/deployments?limit=0", 200, "listDeployments");
const lacksUpdatedAt = (status: number, op: string, path: string) =>
  `the ${status} answer of ${op} does not match the contract schema: ${path} must have required property 'updated_at'`;

describe("causeOf", () => {
  const cases: { name: string; given: Verdict; cause: string }[] = [
    {
      name: "a create answer's schema breach is the record's",
      given: failed("A-1", "MUST", lacksUpdatedAt(201, "createDeployment", "(root)"), createAnswer),
      cause: "schema /v2/deployments must have required property 'updated_at'",
    },
    {
      name: "a list item's breach is the same record's, whatever its index",
      given: failed(
        "A-2",
        "MUST",
        `${lacksUpdatedAt(200, "listDeployments", "/resources/7")}; /resources/8 x`,
        listAnswer,
      ),
      cause: "schema /v2/deployments must have required property 'updated_at'",
    },
    {
      name: "a nested field keeps its path, indexes as *",
      given: failed(
        "A-3",
        "MUST",
        "the 200 answer of listDeployments does not match the contract schema: /resources/0/secrets/2/name must be string",
        listAnswer,
      ),
      cause: "schema /v2/deployments/secrets/*/name must be string",
    },
    {
      name: "the same breach seen by a full-contract check is the same record's",
      given: failed(
        "SCHEMA-1",
        "SHOULD",
        "the full contract is broken: create codehost: (root) must have required property 'updated_at' | list: /resources/0 must have required property 'updated_at'",
        createAnswer,
      ),
      cause: "schema /v2/deployments must have required property 'updated_at'",
    },
    {
      name: "a full-contract breach of a nested field keeps its path",
      given: failed(
        "SCHEMA-2",
        "SHOULD",
        "the full contract is broken: list: /resources/1/source_config/resource_spec/max_scale must be <= 100 (D-133); /resources/2 x",
        listAnswer,
      ),
      cause: "schema /v2/deployments/source_config/resource_spec/max_scale must be <= 100 (D-133)",
    },
    {
      name: "a wrong media type is one cause, in a schema breach, an error answer or a header check",
      given: failed(
        "HDR-1",
        "MUST",
        "the 201 answer of createDeployment does not match the interface-level (D-220) schema: Content-Type 'text/plain; charset=utf-8' is not the documented application/json",
        createAnswer,
      ),
      cause: "media text/plain",
    },
    {
      name: "the same media type in an error answer's check",
      given: failed(
        "ERR-1",
        "SHOULD",
        "404 answer: Content-Type is 'text/plain; charset=utf-8', expected application/problem+json",
      ),
      cause: "media text/plain",
    },
    {
      name: "the same media type in other words",
      given: failed("PROP-1", "MUST", "list repositories with Accept application/json: a 200 labelled text/plain"),
      cause: "media text/plain",
    },
    {
      name: "a wrong status is the request and the status, whatever the check's words",
      given: failed(
        "B-1",
        "MUST",
        "list deployments: limit=0 answered 200, expected a 4xx [fast-check seed 1]",
        limitZero,
      ),
      cause: "status GET /v2/deployments?limit 200",
    },
    {
      name: "another check's words for the same wrong status",
      given: failed("B-2", "SHOULD", "limit=0: expected an error, got 200", limitZero),
      cause: "status GET /v2/deployments?limit 200",
    },
    {
      name: "any other assertion without its run-specific values",
      given: failed(
        "C-1",
        "MUST",
        "deployment cf-ab12cd-x-1 (0b3f3c4e-1111-4111-8111-111111111111) is listed 2 times",
        listAnswer,
      ),
      cause: "check listDeployments 200 deployment <name> (<id>) is listed <n> times",
    },
  ];
  for (const c of cases) it(c.name, () => expect(causeOf(c.given).cause).toBe(c.cause));
});

describe("normalize", () => {
  const cases: { given: string; want: string }[] = [
    { given: "expected 'S256', got 'plain'", want: "expected 'S256', got 'plain'" },
    { given: "created_at 2026-11-25T10:00:00.123Z is later", want: "created_at <time> is later" },
    { given: 'name "a b c d" refused\nshrunk counter-example (seed 7): {"x":1}', want: "name <value> refused" },
  ];
  for (const c of cases) it(c.given, () => expect(normalize(c.given)).toBe(c.want));
});

describe("groupProblems", () => {
  it("reads one bug seen by many checks as one problem, two bugs as two, MUST first", () => {
    const verdicts: Verdict[] = [
      failed("S-1", "SHOULD", lacksUpdatedAt(201, "createDeployment", "(root)"), createAnswer),
      failed("M-1", "MUST", lacksUpdatedAt(200, "listDeployments", "/resources/0"), listAnswer),
      failed("M-2", "MUST", lacksUpdatedAt(201, "createDeployment", "(root)"), createAnswer),
      failed("S-2", "SHOULD", "limit=0: expected an error, got 200", limitZero),
      { ...failed("P-1", "MUST", ""), status: "pass", failure: undefined },
    ];
    const problems = groupProblems(verdicts);
    expect(problems.map((p) => [p.level, p.checks])).toEqual([
      ["MUST", ["M-1", "M-2", "S-1"]],
      ["SHOULD", ["S-2"]],
    ]);
    expect(problems[0]?.statement).toBe(
      "records of /v2/deployments: must have required property 'updated_at' (in listDeployments 200, createDeployment 201)",
    );
    expect(problems[0]?.exchange).toBe(listAnswer);
    expect(problems[1]?.statement).toBe(
      "GET /v2/deployments?limit=0 is answered 200, not the status the checks expect",
    );
  });
  it("reads every out-of-range limit answered 200 as one problem listing the values (D-384)", () => {
    const limit = (value: string) =>
      exchange("GET", `http://h/v2/deployments?limit=${encodeURIComponent(value)}`, 200, "listDeployments");
    const verdicts: Verdict[] = [
      failed("M-1", "MUST", lacksUpdatedAt(200, "listDeployments", "/resources/0"), listAnswer),
      failed("M-2", "MUST", "limit=0: expected an error, got 200", limit("0")),
      failed("M-3", "MUST", "limit=101: expected a 4xx, got 200", limit("101")),
      failed("M-4", "MUST", "list deployments: query limit=-1 answered 200, expected a 4xx", limit("-1")),
      failed("S-1", "SHOULD", "limit=0.5 answered 200, expected 422", limit("0.5")),
      failed("S-2", "SHOULD", "list deployments: query limit=949809 answered 200, expected a 4xx", limit("949809")),
      failed("S-3", "SHOULD", "an empty limit: expected a 4xx, got 200", limit("")),
      failed(
        "S-4",
        "SHOULD",
        "offset=-1: expected an error, got 200",
        exchange("GET", "http://h/v2/deployments?offset=-1", 200),
      ),
    ];
    const problems = groupProblems(verdicts);
    expect(problems.map((p) => p.checks)).toEqual([["M-2", "M-3", "M-4", "S-1", "S-2", "S-3"], ["M-1"], ["S-4"]]);
    expect(problems[0]?.statement).toBe(
      "GET /v2/deployments?limit=0, 101, -1, 0.5, 949809, (empty) is answered 200, not the status the checks expect",
    );
  });
  it("is empty when nothing failed", () => expect(groupProblems([])).toEqual([]));
});
