/** The run's reading of server errors (LAW-020): only an allowed read answered 500 is kept, the first one. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { internalDetail, RunServerErrors } from "./run-server-errors.js";

const read = (pathAndQuery: string, status: number): [string, Exchange] => [
  pathAndQuery,
  {
    request: { method: "GET", url: `http://h/base${pathAndQuery}`, headers: {} },
    response: { status, headers: {}, body: "" },
    json: undefined,
    durationMs: 0,
  },
];

describe("RunServerErrors", () => {
  it.each([
    { given: read("/v2/deployments?tag_value_ids=0b0f3c55-1111-4222-8333-444455556666", 500), want: true },
    { given: read("/v2/deployments?limit=0", 500), want: false },
    { given: read("/v2/deployments", 503), want: false },
    { given: read("/v2/deployments", 200), want: false },
  ])("$given.0 answered $given.1.response.status → kept: $want", ({ given, want }) => {
    const registry = new RunServerErrors();
    registry.see(...given);
    expect(registry.first !== undefined).toBe(want);
  });

  it("keeps the first of two", () => {
    const registry = new RunServerErrors();
    const [path, first] = read("/v2/auth/providers", 500);
    registry.see(path, first);
    registry.see(...read("/v2/deployments", 500));
    expect(registry.first).toBe(first);
  });
});

describe("internalDetail", () => {
  it.each([
    { given: "Error: boom\n    at listDeployments (/srv/app/routes.ts:12:7)\n", want: "a stack frame" },
    { given: "    at node:internal/process/task_queues:95:5", want: "a stack frame" },
    { given: 'Traceback (most recent call last):\n  File "app.py", line 3, in <module>', want: "a Python traceback" },
    { given: '{"detail":"failed in store.py:88"}', want: "a source file and line" },
    { given: '{"detail":"SELECT id, name FROM deployments WHERE tenant_id = $1"}', want: "SQL" },
    { given: '{"detail":"SQLITE_BUSY: database is locked"}', want: "a database error" },
    { given: '{"detail":"duplicate key value violates unique constraint \\"x\\""}', want: "a database error" },
    {
      given:
        '{"type":"urn:deployment-service:problem:internal","title":"Internal error","status":500,"detail":"The server failed; try again."}',
      want: undefined,
    },
    { given: '{"detail":"the database is unavailable: retry after 1 s"}', want: undefined },
    { given: '{"detail":"select a tenant from the list"}', want: undefined },
  ])("$given → $want", ({ given, want }) => {
    expect(internalDetail(given)).toBe(want);
  });

  it("keeps the first 5xx that shows one, whatever its request", () => {
    const registry = new RunServerErrors();
    const [path, plain] = read("/v2/deployments?limit=0", 503);
    registry.see(path, plain);
    const [, leaking] = read("/v2/deployments?limit=0", 502);
    registry.see(path, { ...leaking, response: { ...leaking.response, body: "at x (/a/b.js:1:2)" } });
    expect(registry.leak?.what).toBe("a stack frame");
    expect(registry.first).toBeUndefined();
  });
});
