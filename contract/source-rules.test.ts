/** The per-source table (spec/source-rules.json) against the schema it talks about, and its image reference rule (D-42). */
import { describe, expect, it } from "vitest";
import { createContractAjv } from "./ajv.js";
import { document } from "./document.js";
import {
  deploymentSources,
  everySourceFields,
  imageSources,
  imageTag,
  isImageReference,
  sourceFields,
  sourcesAvailableOn,
  writeField,
} from "./source-rules.js";

const schemas = document.components?.schemas ?? {};
/** The properties of a component schema. */
const propertiesOf = (name: string) => Object.keys((schemas[name] as { properties?: object }).properties ?? {});
/** The request component schema of each group of the create body. */
const groups: Record<string, string> = {
  source_config: "SourceConfig",
  source_revision_config: "SourceRevisionConfigCreate",
};

describe("per-source table", () => {
  it("lists the sources of the DeploymentSource schema", () => {
    expect(deploymentSources).toEqual((schemas.DeploymentSource as { enum: string[] }).enum);
  });

  it("has one row for every field of the create body's source groups, and for the top-level fields besides the required ones", () => {
    const create = schemas.DeploymentCreate as { properties: object; required: string[] };
    const topLevel = Object.keys(create.properties).filter(
      (name) => !(name in groups) && !create.required.includes(name),
    );
    const want = [
      ...Object.entries(groups).flatMap(([group, schema]) => propertiesOf(schema).map((name) => `${group}.${name}`)),
      ...topLevel,
    ];
    expect(sourceFields.map((row) => row.field).sort()).toEqual(want.sort());
    expect(everySourceFields.every((row) => create.required.includes(row.field))).toBe(true);
  });

  // Each sample alone on a body that is otherwise minimal passes the schema, so only the table can refuse it.
  const validate = createContractAjv().component("DeploymentCreate");
  it.each(sourceFields.map((row) => ({ field: row.field, sample: row.sample })))(
    "the sample of $field passes the schema",
    ({ field, sample }) => {
      const body: Record<string, unknown> = {
        name: "sample",
        source: "internal_template",
        source_config: {},
        source_revision_config: {},
        secrets: [],
      };
      writeField(body, field, sample);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it("puts every source on exactly one hosting kind (D-46)", () => {
    expect(sourcesAvailableOn("cloud")).toEqual([
      "codehost",
      "internal_container",
      "internal_source",
      "internal_template",
    ]);
    expect(sourcesAvailableOn("self_hosted")).toEqual(["external_container"]);
  });

  it("gives an image version to the container sources only (D-42)", () => {
    expect(imageSources).toEqual(["external_container", "internal_container"]);
  });
});

describe("image reference and tag (D-42)", () => {
  const digest = `sha256:${"b".repeat(64)}`;
  const cases: Array<{ given: unknown; want: { reference: boolean; tag: string | null } }> = [
    { given: "registry.example/team/app:1.4.2", want: { reference: true, tag: "1.4.2" } },
    // a registry port is not a tag
    { given: "registry.example:5000/app", want: { reference: true, tag: null } },
    { given: "registry.example:5000/app:v2", want: { reference: true, tag: "v2" } },
    { given: "app:latest", want: { reference: true, tag: "latest" } },
    // a digest is not part of the tag
    { given: `app@${digest}`, want: { reference: true, tag: null } },
    { given: `app:1.0@${digest}`, want: { reference: true, tag: "1.0" } },
    { given: "[::1]:5000/app:3", want: { reference: true, tag: "3" } },
    { given: "App/Upper:1", want: { reference: false, tag: null } },
    { given: "app:", want: { reference: false, tag: null } },
    { given: "https://registry.example/app:1", want: { reference: false, tag: null } },
    { given: "", want: { reference: false, tag: null } },
    { given: undefined, want: { reference: false, tag: null } },
  ];
  it.each(cases)("$given → $want.tag", ({ given, want }) => {
    expect(typeof given === "string" && isImageReference(given)).toBe(want.reference);
    expect(imageTag(given)).toBe(want.tag);
  });
});
