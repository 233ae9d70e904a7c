/** The run's reading of whether each answer belongs to its request: a page keeps its query, a create what it sent. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { plainParameters, RunAnswers } from "./run-answers.js";

const list = (query: string, resources: unknown[], status = 200): Exchange =>
  ({
    operation: "listDeployments",
    request: { method: "GET", url: `http://h/v2/deployments${query}`, headers: {} },
    response: { status, headers: {}, body: "" },
    json: { resources, offset: resources.length },
    durationMs: 0,
  }) as unknown as Exchange;
const create = (operation: string, sent: unknown, answer: unknown): Exchange =>
  ({
    operation,
    request: { method: "POST", url: "http://h/x", headers: {}, body: JSON.stringify(sent) },
    response: { status: 201, headers: {}, body: "" },
    json: answer,
    durationMs: 0,
  }) as unknown as Exchange;
const deployment = (id: string, name = `n-${id}`) => ({ id, name });
const many = (n: number) => Array.from({ length: n }, (_, i) => deployment(`d${i}`));

describe("RunAnswers", () => {
  it.each([
    { given: "a page of 20 without a limit", seen: list("", many(20)), want: undefined },
    {
      given: "image_version=1.0 holding one of 2.0",
      seen: list("?image_version=1.0", [{ ...deployment("a"), image_version: "2.0" }]),
      want: /image_version=1.0 returned n-a, whose image_version is "2.0"/,
    },
    {
      given: "image_version=1.0 holding only 1.0",
      seen: list("?image_version=1.0", [{ ...deployment("a"), image_version: "1.0" }]),
      want: undefined,
    },
    { given: "image_version= (empty): not read", seen: list("?image_version=", [deployment("a")]), want: undefined },
    { given: "a page of 21 without a limit", seen: list("", many(21)), want: /more than its limit 20 \(the default\)/ },
    { given: "a page of 3 with limit=2", seen: list("?limit=2", many(3)), want: /more than its limit 2/ },
    { given: "limit spelled %32: not read", seen: list("?limit=%32", many(3)), want: undefined },
    { given: "limit=0 accepted: the range checks' failure", seen: list("?limit=0", many(1)), want: undefined },
    { given: "limit given twice: not read", seen: list("?limit=1&limit=5", many(3)), want: undefined },
    {
      given: "deployment_ids naming A in upper case",
      seen: list("?deployment_ids=A,b", [deployment("a")]),
      want: undefined,
    },
    {
      given: "deployment_ids answered with another",
      seen: list("?deployment_ids=a", [deployment("a"), deployment("c")]),
      want: /returned c, which it does not name/,
    },
    {
      given: "name_contains in another letter case",
      seen: list("?name_contains=ALP", [deployment("a", "alpha")]),
      want: undefined,
    },
    {
      given: "name_contains answered with another name",
      seen: list("?name_contains=alp", [deployment("a", "beta")]),
      want: /returned beta/,
    },
    { given: "a refused list", seen: list("?limit=1", many(3), 422), want: undefined },
    {
      given: "a deployment create answered with its name",
      seen: create("createDeployment", { name: "a", source: "x" }, { name: "a", source: "x" }),
      want: undefined,
    },
    {
      given: "a provider create answered with another name",
      seen: create("createOAuthProvider", { provider_id: "p", name: "A" }, { provider_id: "p", name: "B" }),
      want: /sent name "A" was answered with name "B"/,
    },
    {
      given: "a provider create whose name equals its client_secret, so the record masks it",
      seen: create(
        "createOAuthProvider",
        { provider_id: "p", name: "[REDACTED]", client_secret: "[REDACTED]" },
        { provider_id: "p", name: "constructor" },
      ),
      want: undefined,
    },
  ])("$given: $want", ({ seen, want }) => {
    const answers = new RunAnswers();
    answers.see(seen);
    if (want === undefined) expect(answers.first).toBeUndefined();
    else expect(answers.first?.why).toMatch(want);
  });
});

describe("plainParameters", () => {
  it.each([
    {
      given: "http://h/x?a=1&b=2",
      want: [
        ["a", "1"],
        ["b", "2"],
      ],
    },
    {
      given: "http://h/x?%6C=1&l=a+b&m=2",
      want: [
        ["%6C", "1"],
        ["m", "2"],
      ],
    },
    { given: "http://h/x", want: [] },
  ])("$given: $want", ({ given, want }) => {
    expect([...plainParameters(given)]).toEqual(want);
  });
});
