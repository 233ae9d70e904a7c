/** Every example of generated/openapi.json validates against its schema, and every operation has titled examples (D-71). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createOpenApiAjv, schemaValidator } from "./openapi-ajv.js";
import { listOperations } from "./openapi-document.js";
import type { OpenApiDocument } from "./openapi-document.js";

type Json = Record<string, any>;
const root = resolve(import.meta.dirname, "..");
const document = JSON.parse(readFileSync(resolve(root, "generated/openapi.json"), "utf8")) as Json;
const operationsOf = () => listOperations(document as OpenApiDocument);
const ajv = createOpenApiAjv(document);

/** One example and the schema it must satisfy. */
interface ExampleCase {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Resolves an example object that is a `$ref` to `#/components/examples/X`. */
function exampleValue(example: Json): unknown {
  if (typeof example.$ref === "string") return exampleValue(document.components.examples[example.$ref.replace("#/components/examples/", "")]);
  return example.value;
}

/** The `example` / `examples` of a schema and of every subschema reached through schema keywords. */
function schemaExamples(where: string, schema: unknown): ExampleCase[] {
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as Json;
  const cases: ExampleCase[] = [];
  if ("example" in node) cases.push({ where: `${where} example`, schema: node, value: node.example });
  if (Array.isArray(node.examples)) node.examples.forEach((value: unknown, index: number) => cases.push({ where: `${where} examples[${index}]`, schema: node, value }));
  for (const [name, property] of Object.entries((node.properties ?? {}) as Json)) cases.push(...schemaExamples(`${where}.${name}`, property));
  for (const keyword of ["items", "additionalProperties", "unevaluatedProperties"]) cases.push(...schemaExamples(`${where}/${keyword}`, node[keyword]));
  for (const keyword of ["anyOf", "allOf", "oneOf"]) {
    ((node[keyword] ?? []) as unknown[]).forEach((member, index) => cases.push(...schemaExamples(`${where}/${keyword}[${index}]`, member)));
  }
  return cases;
}

/** The examples of a media type object or a parameter: `example` and the named `examples`. */
function namedExamples(where: string, holder: Json, schema: unknown): ExampleCase[] {
  const cases: ExampleCase[] = [];
  if ("example" in holder) cases.push({ where: `${where} example`, schema, value: holder.example });
  for (const [title, example] of Object.entries((holder.examples ?? {}) as Json)) cases.push({ where: `${where} "${title}"`, schema, value: exampleValue(example as Json) });
  return cases;
}

function collectExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [name, schema] of Object.entries((document.components?.schemas ?? {}) as Json)) cases.push(...schemaExamples(`#/components/schemas/${name}`, schema));
  for (const [name, parameter] of Object.entries((document.components?.parameters ?? {}) as Json)) {
    cases.push(...namedExamples(`#/components/parameters/${name}`, parameter as Json, (parameter as Json).schema));
  }
  for (const entry of operationsOf()) {
    const operation = entry.operation as Json;
    const at = `${entry.operationId} (${entry.method.toUpperCase()} ${entry.path})`;
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      if (!parameter.$ref) cases.push(...namedExamples(`${at} parameter ${parameter.name}`, parameter, parameter.schema));
    }
    for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Json)) {
      cases.push(...namedExamples(`${at} request ${type}`, media as Json, (media as Json).schema));
    }
    for (const [status, response] of Object.entries(operation.responses as Json)) {
      for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
        cases.push(...namedExamples(`${at} ${status} ${type}`, media as Json, (media as Json).schema));
      }
    }
  }
  return cases;
}

const cases = collectExamples();

describe("every example validates against its schema", () => {
  it("finds the examples of the document", () => {
    // Six operations with success and error examples, request bodies and a schema example.
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((example) => [example.where, example] as const))("%s", (_where, example) => {
    const validate = schemaValidator(ajv, example.schema as object);
    const valid = validate(example.value);
    expect(validate.errors ?? [], JSON.stringify(example.value)).toEqual([]);
    expect(valid).toBe(true);
  });

  // Each case breaks one thing of a valid value, so the failing keyword must be the one named.
  const deployment = () => structuredClone(document.paths["/v2/deployments"].post.responses["201"].content["application/json"].examples["Codehost deployment"].value) as Json;
  it.each([
    { name: "a missing required field", schema: "Deployment", value: () => { const d = deployment(); delete d.secrets; return d; }, keyword: "required" },
    { name: "a null where null is not allowed", schema: "Deployment", value: () => ({ ...deployment(), name: null }), keyword: "type" },
    { name: "a wrong enum value", schema: "Deployment", value: () => ({ ...deployment(), source: "github" }), keyword: "enum" },
    { name: "an int32 out of range", schema: "DeploymentList", value: () => ({ resources: [], offset: 2 ** 31 }), keyword: "format" },
    { name: "a malformed uuid", schema: "Deployment", value: () => ({ ...deployment(), id: "not-a-uuid" }), keyword: "format" },
    { name: "a malformed date-time", schema: "Deployment", value: () => ({ ...deployment(), created_at: "yesterday" }), keyword: "format" },
    { name: "a negative cpu", schema: "ResourceSpec", value: () => ({ cpu: -1 }), keyword: "minimum" },
  ])("the validator rejects $name", ({ schema, value, keyword }) => {
    const validate = schemaValidator(ajv, { $ref: `#/components/schemas/${schema}` });
    expect(validate(value())).toBe(false);
    expect(validate.errors?.map((error) => error.keyword)).toContain(keyword);
  });

  it("the unbroken value is valid", () => {
    expect(schemaValidator(ajv, { $ref: "#/components/schemas/Deployment" })(deployment())).toBe(true);
  });

  it("the validator accepts null where the contract allows it", () => {
    expect(schemaValidator(ajv, { $ref: "#/components/schemas/SourceConfig" })({ repo_url: null, resource_spec: null })).toBe(true);
  });
});

describe("titled examples (Prefer: example=<title> on the Prism mock)", () => {
  const operations = operationsOf();
  const titled = (media: Json | undefined) =>
    Object.entries((media?.examples ?? {}) as Json).filter(([title, example]) => title.trim() !== "" && (example as Json).summary === title);

  it.each(operations.map((entry) => [entry.operationId, entry] as const))("%s has a titled success example and a titled error example", (_id, entry) => {
    const responses = entry.operation.responses as Json;
    const success = titled(responses[String(entry.successStatus)]?.content?.["application/json"]);
    const errors = Object.entries(responses)
      .filter(([status]) => /^[45]/.test(status))
      .flatMap(([, response]) => titled((response as Json).content?.["application/problem+json"]));
    expect(success.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });

  it.each(operations.map((entry) => [entry.operationId, entry] as const))("%s: example titles are unique across its responses", (_id, entry) => {
    const titles = Object.values(entry.operation.responses as Json).flatMap((response) =>
      Object.values(((response as Json).content ?? {}) as Json).flatMap((media) => Object.keys(((media as Json).examples ?? {}) as Json)),
    );
    expect(titles.length).toBe(new Set(titles).size);
  });

  it.each(operations.map((entry) => [entry.operationId, entry] as const))("%s: each request example has the success example of the same title", (_id, entry) => {
    const requests = Object.keys(((entry.operation as Json).requestBody?.content?.["application/json"]?.examples ?? {}) as Json);
    const successes = Object.keys(((entry.operation.responses as Json)[String(entry.successStatus)]?.content?.["application/json"]?.examples ?? {}) as Json);
    for (const title of requests) expect(successes).toContain(title);
  });

  const successValues = (operationId: string): Json[] => {
    const entry = operations.find((candidate) => candidate.operationId === operationId)!;
    const examples = (entry.operation.responses as Json)[String(entry.successStatus)].content["application/json"].examples as Json;
    return Object.values(examples).map((example) => (example as Json).value as Json);
  };
  const requestValues = (operationId: string): Json[] => {
    const entry = operations.find((candidate) => candidate.operationId === operationId)!;
    return Object.values(((entry.operation as Json).requestBody?.content?.["application/json"]?.examples ?? {}) as Json).map((example) => (example as Json).value as Json);
  };

  it("createDeployment shows a codehost deployment and an external_container one with a resource_spec", () => {
    const requests = requestValues("createDeployment");
    expect(requests.some((body) => body.source === "codehost" && body.source_config?.repo_url && body.source_revision_config?.repo_ref)).toBe(true);
    expect(requests.some((body) => body.source === "external_container" && body.source_config?.resource_spec)).toBe(true);
  });

  it("createOAuthProvider shows a PKCE provider", () => {
    expect(requestValues("createOAuthProvider").some((body) => body.uses_pkce === true && body.code_challenge_method)).toBe(true);
  });

  it("listDeployments shows a two-page listing whose offsets chain", () => {
    const pages = successValues("listDeployments");
    const first = pages.find((page) => page.offset === page.resources.length && page.resources.length > 0);
    expect(first).toBeDefined();
    const next = pages.find((page) => page !== first && page.offset - page.resources.length === first!.offset);
    expect(next).toBeDefined();
    const ids = [...first!.resources, ...next!.resources].map((deployment: Json) => deployment.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
