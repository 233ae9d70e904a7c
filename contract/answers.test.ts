/** Judging answers against the contract: documented status, media type, body schema. */
import { describe, expect, it } from "vitest";
import { answerProblems } from "./answers.js";

const problem = {
  type: "urn:deployment-service:problem:unauthenticated",
  title: "Unauthenticated",
  status: 401,
  detail: "Send an API key in X-Api-Key.",
};

describe("answerProblems", () => {
  const cases: Array<{
    given: { id: string; status: number; contentType?: string; body: unknown; anySuccess?: boolean };
    want: RegExp | null;
  }> = [
    {
      given: {
        id: "listDeployments",
        status: 200,
        contentType: "application/json",
        body: { resources: [], offset: 0 },
      },
      want: null,
    },
    {
      given: {
        id: "listDeployments",
        status: 200,
        contentType: "application/json; charset=utf-8",
        body: { resources: [], offset: 0 },
      },
      want: null,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "text/plain", body: { resources: [], offset: 0 } },
      want: /Content-Type 'text\/plain'/,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "application/json", body: { resources: [] } },
      want: /offset/,
    },
    {
      given: { id: "listDeployments", status: 200, contentType: "application/json", body: undefined },
      want: /not JSON/,
    },
    {
      given: { id: "listDeployments", status: 418, contentType: "application/json", body: {} },
      want: /status 418 is not a documented answer/,
    },
    {
      given: { id: "createDeployment", status: 200, contentType: "application/json", body: {} },
      want: /status 200 is not a documented/,
    },
    {
      given: { id: "createDeployment", status: 200, contentType: "application/json", body: {}, anySuccess: true },
      want: /must have required property/,
    },
    {
      given: { id: "listOAuthProviders", status: 401, contentType: "application/problem+json", body: problem },
      want: null,
    },
    {
      given: { id: "listOAuthProviders", status: 401, contentType: "application/json", body: problem },
      want: /application\/problem\+json/,
    },
  ];
  it.each(cases)("$given.id $given.status $given.contentType", ({ given, want }) => {
    const problems = answerProblems(given.id, given, { anySuccess: given.anySuccess ?? false });
    if (want === null) expect(problems).toEqual([]);
    else expect(problems.join("\n")).toMatch(want);
  });
});
