/** The fault and latency modes on both mocks, end to end (D-80), and the sandbox through `startMock` (D-79). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { type RunningMock, startMock } from "./mock.js";

const providers = operation("listOAuthProviders").path;

describe.each([
  { mode: "static (Prism)", stateful: false },
  { mode: "stateful (sandbox)", stateful: true },
])("$mode mock", ({ stateful }) => {
  let mock: RunningMock;
  let failing: RunningMock;
  beforeAll(async () => {
    [mock, failing] = await Promise.all([
      startMock({ port: 0, stateful, faults: { latency: { min: 30, max: 60 } } }),
      startMock({ port: 0, stateful, faults: { failRate: 1 } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), failing?.close()]);
  });

  it("answers after at least the lower latency bound", async () => {
    const started = performance.now();
    const response = await fetch(`${mock.url}${providers}`, { headers: { "X-Api-Key": "k" } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("forces a fault on one request with Prefer: fault=", async () => {
    const response = await fetch(`${mock.url}${providers}`, { headers: { "X-Api-Key": "k", Prefer: "fault=429" } });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    await expect(
      fetch(`${mock.url}${providers}`, { headers: { "X-Api-Key": "k", Prefer: "fault=reset" } }),
    ).rejects.toThrow();
  });

  it("answers 503 with Retry-After at --fail-rate 1", async () => {
    const response = await fetch(`${failing.url}${providers}`, { headers: { "X-Api-Key": "k" } });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ type: "about:blank", status: 503 });
  });
});
