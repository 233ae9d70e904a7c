/** The breaking-change gate (D-82): the classifier rule by rule and side by side, the gate's verdict and the impact; its agreement with `redocly diff` is generator/redocly-agreement.slow-test.ts (D-480). */
import { describe, expect, it } from "vitest";
import { cases, classify, createDeployment, schemas } from "./contract-change-cases.js";
import { judge, readAcknowledgments } from "./contract-gate.js";
import { clientTypeAliases, touchingChecks } from "./contract-impact.js";

describe("classifyChanges", () => {
  it.each(cases)("$name", async ({ given, want }) => {
    const { changes } = await classify(given);
    expect(changes.map((change) => `${change.rule} ${change.location}`).sort()).toEqual([...want].sort());
  });

  it("names the component schemas on the way and the statuses that show a change", async () => {
    const { changes } = await classify((doc) =>
      schemas(doc).ProblemType.enum.push("urn:deployment-service:problem:gone"),
    );
    const create = changes.find((change) => change.operation === "createDeployment")!;
    expect(create).toMatchObject({
      severity: "breaking",
      schemas: ["Problem", "ProblemType"],
      detail: 'enum value "urn:deployment-service:problem:gone" added',
    });
    expect(create.statuses).toEqual(expect.arrayContaining(["400", "401", "409", "422"]));
  });
});

describe("the gate", () => {
  const breaking = async () => (await classify((doc) => (schemas(doc).DeploymentName.maxLength = 10))).changes;
  const changelog = (line: string) =>
    `# Contract changelog\n\n## Unreleased\n\n${line}\n\n## 1.0.0\n\n- request-constraint-tightened DeploymentName: an old release\n`;

  it("fails on a breaking change at the same major version", async () => {
    expect(judge(await breaking(), "1.0.0", "1.1.0", [])).toMatchObject({ pass: false, majorRaised: false });
  });
  it("passes when the major version was raised", async () => {
    expect(judge(await breaking(), "1.0.0", "2.0.0", [])).toMatchObject({
      pass: true,
      majorRaised: true,
      blocking: [],
    });
  });
  it.each([
    {
      by: "its full location",
      line: "- request-constraint-tightened createDeployment request body.name: names above 10 characters break the cluster",
    },
    { by: "its operation", line: "- request-constraint-tightened createDeployment: shorter names" },
    { by: "a component schema on its path", line: "- request-constraint-tightened DeploymentName: shorter names" },
  ])("passes when a CHANGELOG line under Unreleased acknowledges it by $by", async ({ line }) => {
    const verdict = judge(await breaking(), "1.0.0", "1.0.0", readAcknowledgments(changelog(line)));
    expect(verdict).toMatchObject({ pass: true, blocking: [] });
    expect(verdict.acknowledged).toHaveLength(1);
  });
  it("acknowledges one enum value by `<Component> <value>`, and not another", async () => {
    const { changes } = await classify((doc) =>
      schemas(doc).ProblemType.enum.push("urn:deployment-service:problem:gone"),
    );
    const line = (value: string) => readAcknowledgments(changelog(`- response-enum-widened ProblemType ${value}: why`));
    expect(judge(changes, "1.0.0", "1.0.0", line("urn:deployment-service:problem:gone")).pass).toBe(true);
    expect(judge(changes, "1.0.0", "1.0.0", line("urn:deployment-service:problem:service-unavailable")).pass).toBe(
      false,
    );
  });
  it("does not count a line of another rule, or one under a released version", async () => {
    expect(
      judge(
        await breaking(),
        "1.0.0",
        "1.0.0",
        readAcknowledgments(changelog("- request-field-removed DeploymentName: wrong rule")),
      ).pass,
    ).toBe(false);
    expect(readAcknowledgments(changelog(""))).toEqual([]);
  });
  it("passes compatible and info changes", async () => {
    const { changes } = await classify(
      (doc) => (
        (schemas(doc).DeploymentCreate.properties.region = { type: "string" }),
        delete createDeployment(doc).responses["409"]
      ),
    );
    expect(judge(changes, "1.0.0", "1.0.0", [])).toMatchObject({ pass: true });
  });
});

describe("impact", () => {
  it("ties the name length to the checks that send names, and the client types to the component schemas", async () => {
    const [change] = (await classify((doc) => (schemas(doc).DeploymentName.maxLength = 10))).changes;
    expect(touchingChecks(change!)).toEqual(expect.arrayContaining(["DEP-CREATE-017", "FUZZ-004"]));
    expect(touchingChecks(change!)).not.toContain("DEP-LIST-020");
    const aliases = clientTypeAliases();
    expect(change!.schemas.map((name) => aliases.get(name))).toEqual(["DeploymentCreate", "DeploymentName"]);
    expect(aliases.get("uuid")).toBe("Uuid");
  });
});
