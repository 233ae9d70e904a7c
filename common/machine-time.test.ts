/** timeScale (D-403): TIME_SCALE when it is a number of 1 or more, else the load per core between 1 and 10. */
import { describe, expect, it } from "vitest";
import { timeScale } from "./machine-time.js";

describe("timeScale", () => {
  it.each([
    { given: { TIME_SCALE: "4" }, want: 4 },
    { given: { TIME_SCALE: "1.5" }, want: 1.5 },
  ])("takes TIME_SCALE=$given.TIME_SCALE", ({ given, want }) => {
    expect(timeScale(given)).toBe(want);
  });

  it.each([{ TIME_SCALE: "0.5" }, { TIME_SCALE: "fast" }, {}])("follows the load otherwise (%o)", (given) => {
    const scale = timeScale(given);
    expect(scale).toBeGreaterThanOrEqual(1);
    expect(scale).toBeLessThanOrEqual(10);
  });
});
