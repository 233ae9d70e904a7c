/** The gate's request for major changesets (D-261): which packages a breaking change reaches, and what satisfies it. */
import { describe, expect, it } from "vitest";
import { formatMissingMajors, missingMajors, readChangesets } from "./contract-changesets.js";
import type { ContractChange } from "./contract-classify.js";
import type { Impact } from "./contract-impact.js";

const change = (side: ContractChange["side"], severity: ContractChange["severity"] = "breaking"): ContractChange => ({
  rule: side === "request" ? "request-constraint-tightened" : "response-field-removed",
  severity,
  operation: "listDeployments",
  side,
  path: side === "request" ? "query.limit" : "body.resources[].updated_at",
  location: `listDeployments ${side} ${side === "request" ? "query.limit" : "body.resources[].updated_at"}`,
  schemas: side === "request" ? [] : ["DeploymentList", "Deployment"],
  detail: side === "request" ? "maximum 100 → 50" : "field removed",
  statuses: side === "request" ? [] : ["200"],
});
const impact = (checks: string[]): Impact => ({ checks, examples: [], clientTypes: ["Deployment"] });
const none = { base: new Map<string, string>(), now: new Map<string, string>() };
const all = ["deployment-client", "deployment-mock", "deployment-conformance"];

describe("readChangesets", () => {
  const cases: Array<{ name: string; files: string[]; want: Record<string, string> }> = [
    { name: "none", files: [], want: {} },
    {
      name: "quoted names, the largest bump per package",
      files: [
        '---\n"deployment-client": patch\n---\n\nfix\n',
        "---\n'deployment-client': major\ndeployment-mock: minor\n---\nx\n",
      ],
      want: { "deployment-client": "major", "deployment-mock": "minor" },
    },
    { name: "a body line is not front matter", files: ["---\n---\ndeployment-client: major\n"], want: {} },
  ];
  it.each(cases)("$name", ({ files, want }) => {
    expect(Object.fromEntries(readChangesets(files))).toEqual(want);
  });
});

describe("missingMajors", () => {
  const response = change("response");
  const request = change("request");
  const cases: Array<{
    name: string;
    changes: ContractChange[];
    checks: string[];
    changesets?: Record<string, "major" | "minor">;
    versions?: typeof none;
    want: string[];
  }> = [
    { name: "a removed response field reaches all three", changes: [response], checks: [], want: all },
    { name: "a compatible change asks for nothing", changes: [change("response", "compatible")], checks: [], want: [] },
    {
      name: "a tighter request bound no check names spares the suite",
      changes: [request],
      checks: [],
      want: ["deployment-client", "deployment-mock"],
    },
    { name: "a check that names it reaches the suite", changes: [request], checks: ["DEP-LIST-003"], want: all },
    {
      name: "a major changeset satisfies its package only",
      changes: [response],
      checks: [],
      changesets: { "deployment-client": "major", "deployment-mock": "minor" },
      want: ["deployment-mock", "deployment-conformance"],
    },
    {
      name: "a version already raised to the next major satisfies it",
      changes: [response],
      checks: [],
      versions: { base: new Map([["deployment-mock", "0.1.0"]]), now: new Map([["deployment-mock", "1.0.0"]]) },
      want: ["deployment-client", "deployment-conformance"],
    },
  ];
  it.each(cases)("$name", ({ changes, checks, changesets = {}, versions = none, want }) => {
    const impacts = new Map(changes.map((c) => [c, impact(checks)]));
    const missing = missingMajors(changes, impacts, new Map(Object.entries(changesets)), versions);
    expect(missing.map((m) => m.name)).toEqual(want);
  });

  it("the request names each package and the field that reaches it", () => {
    const text = formatMissingMajors(
      missingMajors([response], new Map([[response, impact(["SEM-012"])]]), new Map(), none),
    );
    expect(text).toContain('"deployment-conformance": major');
    expect(text).toContain("listDeployments response body.resources[].updated_at (field removed): its checks SEM-012");
  });
});
