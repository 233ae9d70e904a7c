/** The run's time registry: the first created_at or updated_at later than the answer that showed it, beyond the tolerance. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { RunTimes } from "./run-times.js";

const exchange = (operation: string, json: unknown, status = 200): Exchange =>
  ({ operation, json, response: { status, headers: {}, body: "" }, durationMs: 0 }) as unknown as Exchange;
const at = Date.parse("2026-11-28T12:00:00.000Z");
const record = (created: string, updated = created) => ({ id: "a", created_at: created, updated_at: updated });

describe("RunTimes", () => {
  it.each([
    {
      given: "times before the answer",
      seen: exchange("createOAuthProvider", record("2026-11-28T11:59:59Z")),
      want: undefined,
    },
    {
      given: "updated_at an hour ahead in a list",
      seen: exchange("listDeployments", { resources: [record("2026-11-28T11:00:00Z", "2026-11-28T13:00:00Z")] }),
      want: /^updated_at of deployment a is 2026-11-28T13:00:00Z, 3600 s after/,
    },
    {
      given: "created_at 1.5 s ahead, inside the 2 s tolerance",
      seen: exchange("listOAuthProviders", [record("2026-11-28T12:00:01.500Z")]),
      want: undefined,
    },
    {
      given: "created_at after updated_at",
      seen: exchange("listOAuthProviders", [record("2026-11-28T11:00:01Z", "2026-11-28T11:00:00Z")]),
      want: /^provider a has created_at 2026-11-28T11:00:01Z after its updated_at/,
    },
    {
      given: "a time ahead in a refused answer",
      seen: exchange("createDeployment", record("2026-11-28T13:00:00Z"), 409),
      want: undefined,
    },
  ])("$given: $want", ({ seen, want }) => {
    const times = new RunTimes(2000);
    times.see(seen, at);
    if (want === undefined) expect(times.first).toBeUndefined();
    else expect(times.first?.why).toMatch(want);
  });
});
