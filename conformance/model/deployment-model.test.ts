/** Tests of the deployment list model: given created deployments and a query, want the page the contract asks for. */
import { describe, expect, it } from "vitest";
import { DeploymentModel, type ListQuery } from "./deployment-model.js";

/** Three deployments created one second apart: a (oldest), b (a container with a listener), c (newest). */
function model(): DeploymentModel {
  const m = new DeploymentModel();
  const create = (id: string, name: string, second: number, body: Record<string, unknown> = {}) =>
    m.add(
      { name, source: "internal_template", source_config: {}, source_revision_config: {}, ...body },
      { id, name, created_at: `2026-11-23T10:00:0${second}.123456Z`, status: "AWAITING_DATABASE" },
    );
  create("00000000-0000-4000-8000-00000000000a", "cf-run-alpha", 1);
  create("00000000-0000-4000-8000-00000000000b", "cf-run-Beta", 2, {
    source: "external_container",
    source_config: { listener_id: "00000000-0000-4000-8000-0000000000ff" },
    source_revision_config: { image_uri: "registry.example.com:5000/team/app:2.0" },
  });
  create("00000000-0000-4000-8000-00000000000c", "cf-run-gamma", 3);
  return m;
}

const names = (m: DeploymentModel, ids: string[] | undefined) => ids?.map((id) => m.byId(id)!.name);

describe("DeploymentModel.expectedPage", () => {
  const cases: { given: ListQuery; want: { names: string[]; offset: number } | undefined }[] = [
    { given: {}, want: { names: ["cf-run-gamma", "cf-run-Beta", "cf-run-alpha"], offset: 3 } },
    { given: { limit: 2 }, want: { names: ["cf-run-gamma", "cf-run-Beta"], offset: 2 } },
    { given: { limit: 2, offset: 2 }, want: { names: ["cf-run-alpha"], offset: 3 } },
    { given: { offset: 7 }, want: { names: [], offset: 7 } },
    { given: { name_contains: "BETA" }, want: { names: ["cf-run-Beta"], offset: 1 } },
    { given: { name_contains: "run_" }, want: { names: [], offset: 0 } },
    { given: { name_contains: "%" }, want: { names: [], offset: 0 } },
    { given: { remote_reconciled: true }, want: { names: ["cf-run-Beta"], offset: 1 } },
    { given: { remote_reconciled: false, limit: 1, offset: 1 }, want: { names: ["cf-run-alpha"], offset: 2 } },
    { given: { image_version: "2.0" }, want: { names: ["cf-run-Beta"], offset: 1 } },
    { given: { deployment_type: "prod" }, want: { names: [], offset: 0 } },
    { given: { deployment_type: "dev", limit: 1 }, want: { names: ["cf-run-gamma"], offset: 1 } },
    { given: { tag_value_ids: ["00000000-0000-4000-8000-000000000001"] }, want: { names: [], offset: 0 } },
    {
      given: { deployment_ids: ["00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000-00000000000c"] },
      want: { names: ["cf-run-gamma", "cf-run-alpha"], offset: 2 },
    },
    { given: { status: ["UNUSED"] }, want: { names: [], offset: 0 } },
    {
      given: { status: ["AWAITING_DATABASE", "READY"] },
      want: { names: ["cf-run-gamma", "cf-run-Beta", "cf-run-alpha"], offset: 3 },
    },
    // a deployment awaiting its database may turn READY at any moment: the page is not decided
    { given: { status: ["READY"] }, want: undefined },
  ];
  for (const { given, want } of cases)
    it(JSON.stringify(given), () => {
      const m = model();
      const page = m.expectedPage(given);
      expect(page && { names: names(m, page.ids), offset: page.offset }).toEqual(want);
    });
});

describe("DeploymentModel.walkProblems", () => {
  const [a, b, c] = ["a", "b", "c"].map((x) => `00000000-0000-4000-8000-00000000000${x}`) as [string, string, string];
  const cases: { given: { query: ListQuery; got: string[] }; want: RegExp[] }[] = [
    { given: { query: {}, got: [c, b, a] }, want: [] },
    { given: { query: {}, got: [c, a] }, want: [/missing: cf-run-Beta/] },
    { given: { query: {}, got: [c, b, b, a] }, want: [/returned twice/] },
    { given: { query: {}, got: [a, b, c] }, want: [/not newest first/] },
    { given: { query: { name_contains: "gamma" }, got: [c, a] }, want: [/not matching the filters: cf-run-alpha/] },
    { given: { query: { status: ["READY"] }, got: [] }, want: [] },
    { given: { query: { status: ["READY"] }, got: [b] }, want: [] },
  ];
  for (const { given, want } of cases)
    it(`${JSON.stringify(given.query)} → ${given.got.length} ids`, () => {
      const problems = model().walkProblems(given.query, given.got);
      expect(problems.length).toBe(want.length);
      for (const [i, pattern] of want.entries()) expect(problems[i]).toMatch(pattern);
    });
});

describe("DeploymentModel.observe", () => {
  it("accepts AWAITING_DATABASE → READY and refuses the way back", () => {
    const m = model();
    const id = m.deployments[0]!.id;
    expect(m.observe({ id, status: "READY" })).toBeUndefined();
    expect(m.observe({ id, status: "AWAITING_DATABASE" })).toMatch(/went from READY to AWAITING_DATABASE/);
  });
});
