/** The contract's enumerations as the interface spec lists them (States and transitions; 5. List deployments). */
import { describe, expect, it } from "vitest";
import { deploymentStatuses, deploymentTypes, enumeratedWords } from "./enums.js";

describe("enums", () => {
  it.each([
    { given: deploymentStatuses, want: ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"] },
    { given: deploymentTypes, want: ["dev_free", "dev", "prod"] },
  ])("$want.0 …", ({ given, want }) => {
    expect(given).toEqual(want);
  });
});

describe("enumeratedWords", () => {
  it.each([
    { given: "client_secret_post", want: true },
    { given: "S256", want: true },
    { given: "AWAITING_DATABASE", want: true },
    { given: "internal_template", want: true },
    { given: "dev_free", want: true },
    { given: "npm run build", want: false },
  ])("$given: $want", ({ given, want }) => {
    expect(enumeratedWords.has(given)).toBe(want);
  });
});
