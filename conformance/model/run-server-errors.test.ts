/** The run's reading of server errors (LAW-020): only an allowed read answered 500 is kept, the first one. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { RunServerErrors } from "./run-server-errors.js";

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
