/** Tests of the fuzz run's judge of answers: problem details (D-16), documented 2xx bodies of the contract. */
import { describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { ContractChecker } from "./answer-check.js";
import type { RawAnswer } from "./raw-http.js";

const checker = new ContractChecker();
const answer = (
  status: number,
  contentType: string | undefined,
  body: unknown,
  extra: [string, string][] = [],
): RawAnswer => ({
  status,
  headers: [...(contentType ? ([["content-type", contentType]] as [string, string][]) : []), ...extra],
  body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
});
const problem = (status: number, type = "urn:deployment-service:problem:validation") => ({
  type,
  title: "Title",
  status,
  detail: "What to change",
});
const deployment = {
  name: "a",
  source: "internal_template",
  source_config: {},
  source_revision_config: {},
  secrets: [],
  id: "40af20c1-10c5-47cb-8177-12e5ddfa9fd9",
  tenant_id: demo.acme.productionTenantId,
  created_at: "2026-11-21T23:53:11.016057Z",
  updated_at: "2026-11-21T23:53:11.016057Z",
  status: "READY",
  latest_revision_id: "932161b3-51e8-40cc-8bb9-eb6d81b90ef3",
  active_revision_id: null,
};

describe("ContractChecker.check", () => {
  const cases: { name: string; request: { method: string; target: string }; given: RawAnswer; want: RegExp[] }[] = [
    {
      name: "a problem detail",
      request: { method: "POST", target: "/v2/deployments" },
      given: answer(422, "application/problem+json", problem(422)),
      want: [],
    },
    {
      name: "a problem with errors",
      request: { method: "GET", target: "/v2/deployments?limit=0" },
      given: answer(422, "application/problem+json; charset=utf-8", {
        ...problem(422),
        errors: [{ parameter: "limit", detail: "at least 1" }],
      }),
      want: [],
    },
    {
      name: "a bodiless 400 of the HTTP parser",
      request: { method: "FOO", target: "/" },
      given: answer(400, undefined, ""),
      want: [/content-type/, /not a JSON object/],
    },
    {
      name: "plain JSON instead of problem+json",
      request: { method: "GET", target: "/x" },
      given: answer(404, "application/json", problem(404, "urn:deployment-service:problem:not-found")),
      want: [/content-type/],
    },
    {
      name: "status field differing from HTTP",
      request: { method: "GET", target: "/x" },
      given: answer(404, "application/problem+json", problem(400, "urn:deployment-service:problem:not-found")),
      want: [/differs from HTTP 404/],
    },
    {
      name: "an unknown problem type",
      request: { method: "GET", target: "/x" },
      given: answer(404, "application/problem+json", problem(404, "about:blank")),
      want: [/not a ProblemType/],
    },
    {
      name: "a 5xx",
      request: { method: "GET", target: "/x" },
      given: answer(500, "application/problem+json", problem(500, "urn:deployment-service:problem:internal")),
      want: [/500 answer/],
    },
    {
      name: "405 without Allow",
      request: { method: "PUT", target: "/v2/deployments" },
      given: answer(405, "application/problem+json", problem(405, "urn:deployment-service:problem:method-not-allowed")),
      want: [/Allow/],
    },
    {
      name: "405 with Allow",
      request: { method: "PUT", target: "/v2/deployments" },
      given: answer(
        405,
        "application/problem+json",
        problem(405, "urn:deployment-service:problem:method-not-allowed"),
        [["allow", "GET, POST"]],
      ),
      want: [],
    },
    {
      name: "a create that succeeded",
      request: { method: "POST", target: "/v2/deployments" },
      given: answer(201, "application/json", deployment),
      want: [/accepted/],
    },
    {
      name: "a valid list page",
      request: { method: "GET", target: "/v2/deployments?limit=1" },
      given: answer(200, "application/json", { resources: [deployment], offset: 1 }),
      want: [],
    },
    {
      name: "a list page through dot segments",
      request: { method: "GET", target: "/v2/../v2/deployments" },
      given: answer(200, "application/json", { resources: [], offset: 0 }),
      want: [],
    },
    {
      name: "an invalid list page",
      request: { method: "GET", target: "/v2/deployments" },
      given: answer(200, "application/json", { resources: [{ ...deployment, status: "BOGUS" }], offset: 1 }),
      want: [/does not match listDeployments/],
    },
    {
      name: "a 200 outside the contract",
      request: { method: "GET", target: "/admin" },
      given: answer(200, "application/json", {}),
      want: [/outside the contract/],
    },
    {
      name: "HEAD without a body",
      request: { method: "HEAD", target: "/v2/deployments" },
      given: answer(200, "application/json", ""),
      want: [],
    },
    {
      name: "HEAD of an unknown path with a problem content type",
      request: { method: "HEAD", target: "/nowhere" },
      given: answer(404, "application/problem+json", ""),
      want: [],
    },
    {
      name: "HEAD of an unknown path with a plain content type",
      request: { method: "HEAD", target: "/nowhere" },
      given: answer(404, "text/plain", ""),
      want: [/content-type/],
    },
  ];
  it.each(cases)("judges $name", ({ request, given, want }) => {
    const violations = checker.check(request, given);
    expect(violations).toHaveLength(want.length);
    for (const [i, pattern] of want.entries()) expect(violations[i]).toMatch(pattern);
  });
});
