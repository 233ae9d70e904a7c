/** The run's id registry: an id seen naming two records is a clash; the same record seen again is not. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { RunIds } from "./run-ids.js";

const exchange = (operation: string, json: unknown, status = 200): Exchange =>
  ({ operation, json, response: { status, headers: {}, body: "" }, durationMs: 0 }) as unknown as Exchange;
const deployment = (id: string, name: string, tenant: string, revision = `r-${id}`) => ({
  id,
  name,
  tenant_id: tenant,
  latest_revision_id: revision,
  active_revision_id: null,
});
const page = (...resources: unknown[]) => exchange("listDeployments", { resources, offset: resources.length });

describe("RunIds", () => {
  const cases: { given: string; seen: [Exchange, "main" | "other" | undefined][]; want: string[] }[] = [
    {
      given: "a deployment created, then listed twice",
      seen: [
        [exchange("createDeployment", deployment("a", "n", "t1"), 201), "main"],
        [page(deployment("a", "n", "t1")), "main"],
        [page(deployment("A", "n", "t1")), "main"],
      ],
      want: [],
    },
    {
      given: "one id for two names in one tenant",
      seen: [
        [page(deployment("a", "n", "t1")), "main"],
        [page(deployment("a", "m", "t1")), "main"],
      ],
      want: ["a", "r-a"],
    },
    {
      given: "one id for one name in two tenants",
      seen: [
        [exchange("createDeployment", deployment("a", "n", "t1"), 201), "main"],
        [exchange("createDeployment", deployment("a", "n", "t2"), 201), "other"],
      ],
      want: ["a", "r-a"],
    },
    {
      given: "a revision id shared by two deployments",
      seen: [[page(deployment("a", "n", "t1", "r"), deployment("b", "m", "t1", "r")), "main"]],
      want: ["r"],
    },
    {
      given: "a provider id in both organizations, and a deployment id reused as a provider's",
      seen: [
        [exchange("listOAuthProviders", [{ id: "p", provider_id: "x" }]), "main"],
        [exchange("listOAuthProviders", [{ id: "p", provider_id: "x" }]), "other"],
        [page(deployment("d", "n", "t1")), "main"],
        [exchange("createOAuthProvider", { id: "d", provider_id: "y" }, 201), "main"],
      ],
      want: ["p", "d"],
    },
    {
      given: "providers answered to a key of neither organization, and answers that are no success",
      seen: [
        [exchange("listOAuthProviders", [{ id: "p", provider_id: "x" }]), "main"],
        [exchange("listOAuthProviders", [{ id: "p", provider_id: "z" }]), undefined],
        [exchange("createDeployment", deployment("p", "n", "t1"), 409), "main"],
      ],
      want: [],
    },
  ];
  for (const { given, seen, want } of cases)
    it(given, () => {
      const ids = new RunIds();
      for (const [answer, organization] of seen) ids.see(answer, organization);
      expect(ids.clashes.map((c) => c.id)).toEqual(want);
    });

  it.each([
    {
      given: "a page holding one deployment twice",
      seen: page(deployment("a", "n", "t1"), deployment("A", "n", "t1")),
      want: "a",
    },
    {
      given: "a page of distinct deployments",
      seen: page(deployment("a", "n", "t1"), deployment("b", "m", "t1")),
      want: undefined,
    },
    {
      given: "a providers list holding one provider twice",
      seen: exchange("listOAuthProviders", [
        { id: "p", provider_id: "x" },
        { id: "p", provider_id: "x" },
      ]),
      want: "p",
    },
  ])("$given: repeated $want", ({ seen, want }) => {
    const ids = new RunIds();
    ids.see(seen, "main");
    expect(ids.repeated?.id).toBe(want);
  });
});
