/** Every row of every table of the interface spec (spec/interface-tables.json) is in generated/openapi.json. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { checkInterfaceSpec, exceptions, parseStatedType } from "./interface-spec-tables.js";
import { loadInterfaceTables } from "./interface-tables.js";

const root = resolve(import.meta.dirname, "..");
const { sections } = loadInterfaceTables();
const documentText = readFileSync(resolve(root, "generated/openapi.json"), "utf8");
const decisions = readFileSync(resolve(root, "spec/decisions.md"), "utf8");
const load = (): OpenAPIObject => JSON.parse(documentText) as OpenAPIObject;
const result = checkInterfaceSpec(sections, load());

describe("interface spec tables against generated/openapi.json", () => {
  const tables = Object.keys(result.rowsInSpec);

  it("walks every table the test maps", () => {
    expect(tables).toEqual(
      expect.arrayContaining([
        "OAuth provider: creation request body → OAuthProviderCreate",
        "OAuth provider: response record → OAuthProvider",
        "Code-host repository record → CodehostRepository",
        "Deployment (response record) → Deployment",
        "Secret → Secret",
        "SecretReference → SecretReference",
        "SourceConfig → SourceConfig",
        "SourceRevisionConfig → SourceRevisionConfig",
        "SourceRevisionConfig → SourceRevisionConfigCreate",
        "ResourceSpec → ResourceSpec",
        "Paginated deployment list → DeploymentList",
        "6. Create a deployment → DeploymentCreate",
        "States and transitions → DeploymentStatus",
        "List deployments query parameters",
        "Limits",
        "Endpoints",
      ]),
    );
  });

  /** The findings as lines the reader can act on (an exception entry to paste stays as printed, D-481). */
  const readable = (findings: typeof result.findings) =>
    findings.map((finding) => `${finding.table} | ${finding.where}: ${finding.problem}`).join("\n");

  it.each(tables)("%s: every row matches", (table) => {
    expect(result.rowsInSpec[table]).toBeGreaterThan(0);
    expect(result.rowsChecked[table]).toBe(result.rowsInSpec[table]);
    const findings = result.findings.filter((finding) => finding.table === table);
    expect(findings, `\n${readable(findings)}\n`).toEqual([]);
  });

  it("uses every exception, and no finding is left outside a table", () => {
    expect(result.findings, `\n${readable(result.findings)}\n`).toEqual([]);
  });

  it.each(exceptions.map((exception) => [exception.where, exception.aspect, exception.decision] as const))(
    "exception %s (%s) cites %s, a row of spec/decisions.md",
    (_where, _aspect, decision) => {
      expect(decisions).toMatch(new RegExp(`^\\| ${decision} \\|`, "m"));
    },
  );
});

describe("the request/response split", () => {
  const schemas = load().components!.schemas as Record<string, { properties: Record<string, unknown> }>;
  it.each([
    { field: "client_secret", in: "OAuthProviderCreate", notIn: "OAuthProvider" },
    { field: "mcp_server_url", in: "OAuthProvider", notIn: "OAuthProviderCreate" },
    { field: "is_dynamic_client", in: "OAuthProvider", notIn: "OAuthProviderCreate" },
    { field: "repo_commit_sha", in: "SourceRevisionConfig", notIn: "SourceRevisionConfigCreate" },
    { field: "id", in: "Deployment", notIn: "DeploymentCreate" },
    { field: "status", in: "Deployment", notIn: "DeploymentCreate" },
  ])("$field is in $in and not in $notIn", (row) => {
    expect(Object.keys(schemas[row.in]!.properties)).toContain(row.field);
    expect(Object.keys(schemas[row.notIn]!.properties)).not.toContain(row.field);
  });
});

describe("parseStatedType reads the spec's type notation", () => {
  it.each([
    { given: "string", want: { type: { kind: "string" }, nullable: false } },
    { given: "string or null", want: { type: { kind: "string" }, nullable: true } },
    { given: "uuid or null", want: { type: { kind: "string", format: "uuid" }, nullable: true } },
    { given: "date-time", want: { type: { kind: "string", format: "date-time" }, nullable: false } },
    { given: "Secret[]", want: { type: { kind: "array", items: { kind: "ref", name: "Secret" } }, nullable: false } },
    {
      given: "SecretReference[] or null",
      want: { type: { kind: "array", items: { kind: "ref", name: "SecretReference" } }, nullable: true },
    },
    { given: "SourceConfig object", want: { type: { kind: "ref", name: "SourceConfig" }, nullable: false } },
    {
      given: "object with field `cluster_namespace` (string)",
      want: { type: { kind: "fields", fields: { cluster_namespace: { kind: "string" } } }, nullable: false },
    },
  ])("$given", ({ given, want }) => {
    expect(parseStatedType(given, [])).toEqual(want);
  });

  it("takes enum values from the row", () => {
    expect(parseStatedType("enum or null", ["dev_free", "dev", "prod"])).toEqual({
      type: { kind: "enum", values: ["dev_free", "dev", "prod"] },
      nullable: true,
    });
  });
});

/** A broken contract must be reported: each mutation of the real document, and the finding it must cause. */
describe("the check fails on a broken contract", () => {
  type Doc = Record<string, any>;
  const mutations: Array<{ name: string; mutate: (doc: Doc) => void; want: RegExp }> = [
    {
      name: "a field removed",
      mutate: (doc) => delete doc.components.schemas.Deployment.properties.image_version,
      want: /Deployment: field image_version is missing/,
    },
    {
      name: "a field renamed",
      mutate: (doc) => {
        const properties = doc.components.schemas.CodehostRepository.properties;
        properties.defaultBranch = properties.default_branch;
        delete properties.default_branch;
      },
      want: /field default_branch is missing.*|field defaultBranch is not in the interface spec/,
    },
    {
      name: "a wrong type",
      mutate: (doc) => (doc.components.schemas.CodehostRepository.properties.id = { type: "string" }),
      want: /CodehostRepository\.id: is string, want integer/,
    },
    {
      name: "nullability dropped",
      mutate: (doc) => (doc.components.schemas.Deployment.properties.image_version = { type: "string" }),
      want: /Deployment\.image_version: is not nullable/,
    },
    {
      name: "SourceConfig field made non-null",
      mutate: (doc) => (doc.components.schemas.SourceConfig.properties.repo_url = { type: "string" }),
      want: /SourceConfig\.repo_url: is not nullable/,
    },
    {
      name: "a default changed",
      mutate: (doc) => (doc.components.schemas.OAuthProviderCreate.properties.uses_pkce.default = true),
      want: /OAuthProviderCreate\.uses_pkce: default is true, want false/,
    },
    {
      name: "a required field made optional",
      mutate: (doc) => doc.components.schemas.OAuthProviderCreate.required.pop(),
      want: /OAuthProviderCreate\.token_url: is optional, want required/,
    },
    {
      name: "an optional field made required",
      mutate: (doc) => doc.components.schemas.Deployment.required.push("image_version"),
      want: /Deployment\.image_version: is required, want optional/,
    },
    {
      name: "client_secret in the response",
      mutate: (doc) => (doc.components.schemas.OAuthProvider.properties.client_secret = { type: "string" }),
      want: /OAuthProvider: field client_secret is not in the interface spec/,
    },
    {
      name: "an optional field added to the response names the table and the file to edit",
      mutate: (doc) => (doc.components.schemas.Deployment.properties.region = { type: "string" }),
      want: /Deployment: field region is not in the interface spec \(table "Deployment \(response record\)" of spec\/interface-tables.json\)\. .* at the end of `exceptions` in generator\/interface-spec-tables.ts .*:\n {2}\{\n {4}where: "Deployment.region",\n {4}aspect: "field",\n/,
    },
    {
      name: "repo_commit_sha in the request",
      mutate: (doc) =>
        (doc.components.schemas.SourceRevisionConfigCreate.properties.repo_commit_sha = { type: "string" }),
      want: /SourceRevisionConfigCreate: field repo_commit_sha is not in/,
    },
    {
      name: "an enum value removed",
      mutate: (doc) => doc.components.schemas.DeploymentSource.enum.pop(),
      want: /Deployment\.source: is enum .*, want codehost/,
    },
    {
      name: "a state removed",
      mutate: (doc) => doc.components.schemas.DeploymentStatus.enum.pop(),
      want: /DeploymentStatus: is enum/,
    },
    {
      name: "read-only dropped",
      mutate: (doc) => delete doc.components.schemas.Deployment.properties.tenant_id.readOnly,
      want: /Deployment\.tenant_id: is not marked readOnly/,
    },
    {
      name: "limit maximum changed",
      mutate: (doc) => (doc.components.parameters["DeploymentListQuery.limit"].schema.maximum = 1000),
      want: /query\.limit: maximum is 1000, want 100/,
    },
    {
      name: "offset default changed",
      mutate: (doc) => (doc.components.parameters["DeploymentListQuery.offset"].schema.default = 1),
      want: /query\.offset: default is 1, want 0/,
    },
    {
      name: "a list exploded",
      mutate: (doc) => (doc.components.parameters["DeploymentListQuery.deployment_ids"].explode = true),
      want: /query\.deployment_ids: is a list but not explode: false/,
    },
    {
      name: "a ResourceSpec field removed",
      mutate: (doc) => delete doc.components.schemas.ResourceSpec.properties.db_storage_gi,
      want: /field db_storage_gi is missing/,
    },
    {
      name: "a container field retyped",
      mutate: (doc) => (doc.components.schemas.Container.properties.args = { type: "string" }),
      want: /init_containers: items args is string, want an array/,
    },
    {
      name: "a volume source dropped",
      mutate: (doc) => delete doc.components.schemas.Volume.properties.csi,
      want: /volumes: items field csi is missing/,
    },
    {
      name: "a ResourceSpec minimum dropped",
      // The minimum stands inside the non-null branch (D-130).
      mutate: (doc) => delete doc.components.schemas.ResourceSpec.properties.cpu.anyOf[0].minimum,
      want: /ResourceSpec\.cpu: has no minimum 0/,
    },
    {
      name: "operation 4 moved",
      mutate: (doc) => {
        doc.paths["/v1/integrations/codehost-managed/{integration_id}/repos"] =
          doc.paths["/v1/integrations/forge/codehost/{integration_id}/repos"];
        delete doc.paths["/v1/integrations/forge/codehost/{integration_id}/repos"];
      },
      want: /4\. GET \/v1\/integrations\/forge\/codehost\/\{integration_id\}\/repos: operation is missing/,
    },
    {
      name: "a method changed",
      mutate: (doc) => (
        (doc.paths["/v2/deployments"].put = doc.paths["/v2/deployments"].post), delete doc.paths["/v2/deployments"].post
      ),
      want: /6\. POST \/v2\/deployments: operation is missing/,
    },
    {
      name: "a success status changed",
      mutate: (doc) => (
        (doc.paths["/v2/deployments"].post.responses["200"] = doc.paths["/v2/deployments"].post.responses["201"]),
        delete doc.paths["/v2/deployments"].post.responses["201"]
      ),
      want: /success status is 200, D-06 says 201/,
    },
    {
      name: "the tenant header made required",
      mutate: (doc) => (doc.components.parameters.TenantHeader.required = true),
      want: /D-14 says one optional uuid X-Tenant-Id/,
    },
    {
      name: "the API key scheme renamed",
      mutate: (doc) => (doc.components.securitySchemes.ApiKeyAuth.name = "Authorization"),
      want: /not secured by the X-Api-Key header scheme/,
    },
    {
      name: "a refinement that is no longer one",
      mutate: (doc) => (doc.components.schemas.CodeChallengeMethod = { type: "string" }),
      want: /exception D-02 is no longer needed/,
    },
  ];

  it.each(mutations)("reports $name", ({ mutate, want }) => {
    const document = load() as unknown as Doc;
    mutate(document);
    const findings = checkInterfaceSpec(sections, document as unknown as OpenAPIObject).findings;
    expect(findings.map((finding) => `${finding.table} | ${finding.where}: ${finding.problem}`).join("\n")).toMatch(
      want,
    );
  });
});

/** Doc comments on every model, field and operation reach the OpenAPI. */
describe("doc text", () => {
  type Doc = Record<string, any>;
  const doc = load() as unknown as Doc;
  const undocumented = [
    ...Object.entries(doc.components.schemas as Doc).flatMap(([name, schema]) => [
      ...(schema.description ? [] : [`schema ${name}`]),
      ...Object.entries((schema.properties ?? {}) as Doc)
        .filter(([, property]) => !property.description)
        .map(([field]) => `field ${name}.${field}`),
    ]),
    ...Object.entries(doc.components.parameters as Doc)
      .filter(([, parameter]) => !parameter.description)
      .map(([name]) => `parameter ${name}`),
    ...Object.entries(doc.paths as Doc).flatMap(([path, item]) =>
      Object.entries(item as Doc)
        .filter(([, operation]) => !operation.description)
        .map(([method]) => `operation ${method.toUpperCase()} ${path}`),
    ),
  ];

  it("every schema, field, parameter and operation has a description", () => {
    expect(undocumented).toEqual([]);
  });
});
