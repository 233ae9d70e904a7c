/** Tests that every generated mutation really breaks the contract schema (no valid body is sent as "invalid"). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractAjv, operation } from "../../contract/index.js";
import { fieldsOf, schemaMutations, specMutations } from "./invalid-inputs.js";

const provider = {
  provider_id: "p",
  name: "P",
  client_id: "c",
  auth_url: "https://a.example/x",
  token_url: "https://a.example/y",
};
const deployment = {
  name: "cf-x",
  source: "internal_template",
  source_config: {},
  source_revision_config: {},
  secrets: [{ name: "A", value: "v" }],
};

describe("fieldsOf", () => {
  it("finds nested fields with their constraints", () => {
    const fields = fieldsOf("createDeployment");
    const name = fields.find((f) => f.path.join(".") === "name");
    expect(name).toMatchObject({ required: true, pattern: "^[a-zA-Z][a-zA-Z0-9-]*$", maxLength: 63 });
    expect(fields.find((f) => f.path.join(".") === "source_config.integration_id")).toMatchObject({
      format: "uuid",
      nullable: true,
    });
    expect(fields.find((f) => f.path.join(".") === "secrets.0.name")).toMatchObject({
      required: true,
      types: ["string"],
    });
  });
});

describe("mutations break the schema", () => {
  const contractAjv = createContractAjv();
  const cases = [
    {
      name: "provider spec mutations",
      operation: "createOAuthProvider",
      base: provider,
      arb: specMutations("createOAuthProvider", ["provider_type", "token_endpoint_auth_method"]),
    },
    {
      name: "provider schema mutations",
      operation: "createOAuthProvider",
      base: provider,
      arb: schemaMutations("createOAuthProvider"),
    },
    {
      name: "deployment spec mutations",
      operation: "createDeployment",
      base: deployment,
      arb: specMutations("createDeployment", ["source"]),
    },
    {
      name: "deployment schema mutations",
      operation: "createDeployment",
      base: deployment,
      arb: schemaMutations("createDeployment"),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const validate = contractAjv.at(operation(c.operation).requestBody!.pointer);
      expect(validate(c.base)).toBe(true);
      fc.assert(
        fc.property(c.arb, (mutation) => {
          const body = structuredClone(c.base) as Record<string, unknown>;
          mutation.apply(body);
          return validate(body) === false;
        }),
        { numRuns: 500, seed: 1 },
      );
    });
  }
});
