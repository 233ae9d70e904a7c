/** The positive checks' requests, completed from the contract: never a field the source forbids, the check names, or a MUST check must leave out. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { otherFilters, statedFilters } from "./arbitraries.js";
import { forbiddenFor } from "./body-source-rules.js";
import type { Completed } from "./contract-completion.js";
import { completedDeploymentBodies, completedProviderBodies, completedQueries } from "./contract-requests.js";
import type { Source } from "./data.js";
import { isInterfaceField } from "./interface-fields.js";

const drawn = (arbitrary: fc.Arbitrary<Completed>) => fc.sample(arbitrary, { numRuns: 60, seed: 4 });

describe("completed requests", () => {
  it.each([
    { hosting: "cloud", level: "MUST" },
    { hosting: "self_hosted", level: "SHOULD" },
  ] as const)(
    "deployment bodies ($hosting, $level) gain no forbidden field, no name, no resource spec field",
    ({ hosting, level }) => {
      for (const { body, added } of drawn(completedDeploymentBodies(hosting, level))) {
        expect(body.name).toBeUndefined();
        for (const path of added) {
          expect(forbiddenFor(path, body.source as Source)).toBe(false);
          expect(path.startsWith("source_config.resource_spec")).toBe(false);
          if (level === "MUST") expect(isInterfaceField("createDeployment", path)).toBe(true);
        }
      }
    },
  );

  it.each([
    {
      level: "MUST",
      vendors: [],
      want: (body: Record<string, unknown>) => body.provider_type === undefined || body.provider_type === null,
    },
    { level: "SHOULD", vendors: ["slack"], want: () => true },
  ] as const)("provider bodies ($level) gain no provider_id", ({ level, vendors, want }) => {
    for (const { body, added } of drawn(completedProviderBodies(["S256"], vendors, level))) {
      expect(added).not.toContain("provider_id");
      expect(want(body)).toBe(true);
    }
  });

  it.each([
    { level: "MUST", queries: statedFilters, never: "status" },
    { level: "SHOULD", queries: otherFilters, never: "limit" },
  ] as const)("list queries ($level) gain deployment_ids, never $never", ({ level, queries, never }) => {
    const all = drawn(completedQueries(queries, level));
    expect(all.every(({ added }) => added.includes("deployment_ids"))).toBe(true);
    expect(all.some(({ added }) => added.includes(never))).toBe(false);
  });
});
