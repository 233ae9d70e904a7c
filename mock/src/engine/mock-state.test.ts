/** The state format (D-320): a wrong document is refused naming its pointer, and times keep their microseconds. */
import { describe, expect, it } from "vitest";
import { isoFromMicros } from "../../../server/presenters/timestamps.js";
import { microsOf, mockStateFormat, parseMockState } from "./mock-state.js";

const deployment = {
  id: "d1",
  name: "n",
  source: "internal_container",
  status: "READY",
  source_config: {},
  source_revision_config: {},
  created_at: "2026-01-01T00:00:00.000001Z",
  updated_at: "2026-01-01T00:00:00.000001Z",
};

describe("parseMockState", () => {
  it.each([
    [[], /the state must be an object/],
    [{ format: "deployment-mock-state/2" }, /\/format must be/],
    [{ format: mockStateFormat, deployments: {} }, /\/deployments must be an array/],
    [{ format: mockStateFormat, deployments: [{ ...deployment, name: 1 }] }, /\/deployments\/0\/name must be a string/],
    [{ format: mockStateFormat, deployments: [{ ...deployment, status: "GONE" }] }, /\/deployments\/0\/status/],
    [{ format: mockStateFormat, deployments: [{ ...deployment, created_at: "yesterday" }] }, /created_at must be/],
    [{ format: mockStateFormat, deployments: [deployment, deployment] }, /\/deployments\/1\/id repeats/],
    [
      { format: mockStateFormat, deployments: [deployment, { ...deployment, id: "d2", name: "N" }] },
      /\/deployments\/1\/name repeats/,
    ],
    [{ format: mockStateFormat, oauth_providers: [{ id: "p" }] }, /\/oauth_providers\/0\/provider_id/],
    [{ format: mockStateFormat, clock_advanced_ms: -1 }, /\/clock_advanced_ms/],
  ])("refuses %j", (value, message) => {
    expect(() => parseMockState(value)).toThrow(message);
  });

  it("takes a minimal state, the lists empty", () => {
    expect(parseMockState({ format: mockStateFormat })).toEqual({
      format: mockStateFormat,
      deployments: [],
      oauth_providers: [],
    });
  });
});

describe("microsOf", () => {
  it.each([0, 1, 999, 1_767_225_600_000_001, 1_767_225_600_123_456])("inverts isoFromMicros at %i", (us) => {
    expect(microsOf(isoFromMicros(us))).toBe(us);
  });
});
