/** Every example of generated/openapi.json validates against its schema, and every operation has titled examples (D-71). */
import { describe, expect, it } from "vitest";
import {
  type ContractOperation,
  document as contractDocument,
  createContractAjv,
  operation,
  operationList,
  pointer,
} from "../contract/index.js";

type Json = Record<string, any>;
const document = contractDocument as Json;
const contractAjv = createContractAjv();

/** One example and the JSON Pointer of the schema it must satisfy. */
interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/** Resolves an example object that is a `$ref` to `#/components/examples/X`. */
function exampleValue(example: Json): unknown {
  if (typeof example.$ref === "string")
    return exampleValue(document.components.examples[example.$ref.replace("#/components/examples/", "")]);
  return example.value;
}

/** The `example` / `examples` of the schema at `at` and of every subschema reached through schema keywords. */
function schemaExamples(where: string, at: string, schema: unknown): ExampleCase[] {
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as Json;
  const cases: ExampleCase[] = [];
  if ("example" in node) cases.push({ where: `${where} example`, schemaPointer: at, value: node.example });
  if (Array.isArray(node.examples)) {
    for (const [index, value] of (node.examples as unknown[]).entries())
      cases.push({ where: `${where} examples[${index}]`, schemaPointer: at, value });
  }
  for (const [name, property] of Object.entries((node.properties ?? {}) as Json))
    cases.push(...schemaExamples(`${where}.${name}`, at + pointer("properties", name), property));
  for (const keyword of ["items", "additionalProperties", "unevaluatedProperties"])
    cases.push(...schemaExamples(`${where}/${keyword}`, at + pointer(keyword), node[keyword]));
  for (const keyword of ["anyOf", "allOf", "oneOf"]) {
    for (const [index, member] of ((node[keyword] ?? []) as unknown[]).entries()) {
      cases.push(...schemaExamples(`${where}/${keyword}[${index}]`, at + pointer(keyword, String(index)), member));
    }
  }
  return cases;
}

/** The examples of a media type object or a parameter at `at`: `example` and the named `examples`, against its `schema`. */
function namedExamples(where: string, at: string, holder: Json): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const schemaPointer = at + pointer("schema");
  if ("example" in holder) cases.push({ where: `${where} example`, schemaPointer, value: holder.example });
  for (const [title, example] of Object.entries((holder.examples ?? {}) as Json))
    cases.push({ where: `${where} "${title}"`, schemaPointer, value: exampleValue(example as Json) });
  return cases;
}

/** The raw operation object of the document. */
const operationObject = (entry: ContractOperation): Json => document.paths[entry.path][entry.method];

function collectExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [name, schema] of Object.entries((document.components?.schemas ?? {}) as Json)) {
    cases.push(...schemaExamples(`#/components/schemas/${name}`, pointer("components", "schemas", name), schema));
  }
  for (const [name, parameter] of Object.entries((document.components?.parameters ?? {}) as Json)) {
    cases.push(
      ...namedExamples(`#/components/parameters/${name}`, pointer("components", "parameters", name), parameter as Json),
    );
  }
  for (const entry of operationList) {
    const raw = operationObject(entry);
    const at = `${entry.id} (${entry.method.toUpperCase()} ${entry.path})`;
    const operationPointer = pointer("paths", entry.path, entry.method);
    ((raw.parameters ?? []) as Json[]).forEach((parameter, index) => {
      if (!parameter.$ref)
        cases.push(
          ...namedExamples(
            `${at} parameter ${parameter.name}`,
            operationPointer + pointer("parameters", String(index)),
            parameter,
          ),
        );
    });
    for (const [type, media] of Object.entries((raw.requestBody?.content ?? {}) as Json)) {
      cases.push(
        ...namedExamples(
          `${at} request ${type}`,
          operationPointer + pointer("requestBody", "content", type),
          media as Json,
        ),
      );
    }
    for (const [status, response] of Object.entries(raw.responses as Json)) {
      for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
        cases.push(
          ...namedExamples(
            `${at} ${status} ${type}`,
            operationPointer + pointer("responses", status, "content", type),
            media as Json,
          ),
        );
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
    const validate = contractAjv.at(example.schemaPointer);
    const valid = validate(example.value);
    expect(validate.errors ?? [], JSON.stringify(example.value)).toEqual([]);
    expect(valid).toBe(true);
  });

  // Each case breaks one thing of a valid value, so the failing keyword must be the one named.
  const deployment = () =>
    structuredClone(
      document.paths["/v2/deployments"].post.responses["201"].content["application/json"].examples[
        "Codehost deployment"
      ].value,
    ) as Json;
  it.each([
    {
      name: "a missing required field",
      schema: "Deployment",
      value: () => {
        const d = deployment();
        delete d.secrets;
        return d;
      },
      keyword: "required",
    },
    {
      name: "a null where null is not allowed",
      schema: "Deployment",
      value: () => ({ ...deployment(), name: null }),
      keyword: "type",
    },
    {
      name: "a wrong enum value",
      schema: "Deployment",
      value: () => ({ ...deployment(), source: "github" }),
      keyword: "enum",
    },
    {
      name: "an int32 out of range",
      schema: "DeploymentList",
      value: () => ({ resources: [], offset: 2 ** 31 }),
      keyword: "format",
    },
    {
      name: "a malformed uuid",
      schema: "Deployment",
      value: () => ({ ...deployment(), id: "not-a-uuid" }),
      keyword: "format",
    },
    {
      name: "a malformed date-time",
      schema: "Deployment",
      value: () => ({ ...deployment(), created_at: "yesterday" }),
      keyword: "format",
    },
    { name: "a negative cpu", schema: "ResourceSpec", value: () => ({ cpu: -1 }), keyword: "minimum" },
  ])("the validator rejects $name", ({ schema, value, keyword }) => {
    const validate = contractAjv.component(schema);
    expect(validate(value())).toBe(false);
    expect(validate.errors?.map((error) => error.keyword)).toContain(keyword);
  });

  it("the unbroken value is valid", () => {
    expect(contractAjv.component("Deployment")(deployment())).toBe(true);
  });

  it("the validator accepts null where the contract allows it", () => {
    expect(contractAjv.component("SourceConfig")({ repo_url: null, resource_spec: null })).toBe(true);
  });
});

describe("titled examples (Prefer: example=<title> on the Prism mock)", () => {
  const operations = operationList;
  const titled = (media: Json | undefined) =>
    Object.entries((media?.examples ?? {}) as Json).filter(
      ([title, example]) => title.trim() !== "" && (example as Json).summary === title,
    );

  it.each(operations.map((entry) => [entry.id, entry] as const))(
    "%s has a titled success example and a titled error example",
    (_id, entry) => {
      const responses = operationObject(entry).responses as Json;
      const success = titled(responses[String(entry.successStatus)]?.content?.["application/json"]);
      const errors = Object.entries(responses)
        .filter(([status]) => /^[45]/.test(status))
        .flatMap(([, response]) => titled((response as Json).content?.["application/problem+json"]));
      expect(success.length).toBeGreaterThanOrEqual(1);
      expect(errors.length).toBeGreaterThanOrEqual(1);
    },
  );

  it.each(operations.map((entry) => [entry.id, entry] as const))(
    "%s: example titles are unique across its responses",
    (_id, entry) => {
      const titles = Object.values(operationObject(entry).responses as Json).flatMap((response) =>
        Object.values(((response as Json).content ?? {}) as Json).flatMap((media) =>
          Object.keys(((media as Json).examples ?? {}) as Json),
        ),
      );
      expect(titles.length).toBe(new Set(titles).size);
    },
  );

  it.each(operations.map((entry) => [entry.id, entry] as const))(
    "%s: each request example has the success example of the same title",
    (_id, entry) => {
      const requests = Object.keys(
        (operationObject(entry).requestBody?.content?.["application/json"]?.examples ?? {}) as Json,
      );
      const successes = Object.keys(
        (operationObject(entry).responses[String(entry.successStatus)]?.content?.["application/json"]?.examples ??
          {}) as Json,
      );
      for (const title of requests) expect(successes).toContain(title);
    },
  );

  const successValues = (operationId: string): Json[] => {
    const entry = operation(operationId);
    const examples = operationObject(entry).responses[String(entry.successStatus)].content["application/json"]
      .examples as Json;
    return Object.values(examples).map((example) => (example as Json).value as Json);
  };
  const requestValues = (operationId: string): Json[] => {
    const entry = operation(operationId);
    return Object.values(
      (operationObject(entry).requestBody?.content?.["application/json"]?.examples ?? {}) as Json,
    ).map((example) => (example as Json).value as Json);
  };

  it("createDeployment shows a codehost deployment and an external_container one with a resource_spec", () => {
    const requests = requestValues("createDeployment");
    expect(
      requests.some(
        (body) => body.source === "codehost" && body.source_config?.repo_url && body.source_revision_config?.repo_ref,
      ),
    ).toBe(true);
    expect(requests.some((body) => body.source === "external_container" && body.source_config?.resource_spec)).toBe(
      true,
    );
  });

  it("createOAuthProvider shows a PKCE provider", () => {
    expect(
      requestValues("createOAuthProvider").some((body) => body.uses_pkce === true && body.code_challenge_method),
    ).toBe(true);
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
