/** The contract's enumerations as the interface spec lists them (States and transitions; 5. List deployments). */
import { describe, expect, it } from "vitest";
import { deploymentStatuses, deploymentTypes } from "./enums.js";

describe("enums", () => {
  it.each([
    { given: deploymentStatuses, want: ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"] },
    { given: deploymentTypes, want: ["dev_free", "dev", "prod"] },
  ])("$want.0 …", ({ given, want }) => {
    expect(given).toEqual(want);
  });
});
