/** `npm run mock -- --dynamic`: every operation answers 200 generated requests in a row, and every answer follows the contract. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerProblems, demo, examplePath, operationList, requestExamples } from "../../contract/index.js";
import { type RunningMock, startMock } from "./mock.js";

const rounds = 200;

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, dynamic: true });
});
afterAll(() => mock?.close());

describe("dynamic mock", () => {
  it.each(operationList.map((operation) => [operation.id, operation] as const))(
    "%s: 200 answers in a row follow the contract",
    async (_id, operation) => {
      const path = examplePath(operation, { integration_id: demo.acme.plainIntegrationId });
      const body = requestExamples(operation)[0]?.value;
      const problems = new Map<string, number>();
      const statuses = new Map<number, number>();
      for (let round = 0; round < rounds; round++) {
        const response = await fetch(`${mock.url}${path}`, {
          method: operation.method.toUpperCase(),
          headers: { "X-Api-Key": "k", ...(body ? { "Content-Type": "application/json" } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const found = answerProblems(operation.id, {
          status: response.status,
          contentType: response.headers.get("content-type") ?? undefined,
          body: text ? JSON.parse(text) : undefined,
        });
        for (const problem of found) problems.set(problem, (problems.get(problem) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ [operation.successStatus]: rounds });
      expect(Object.fromEntries(problems)).toEqual({});
    },
    120_000,
  );
});
