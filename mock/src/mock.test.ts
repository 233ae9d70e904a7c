/** The Prism mock serves every operation and every titled example, schema-valid, and rejects invalid requests. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerProblems,
  createContractAjv,
  demo,
  document,
  examplePath,
  operation,
  operationList,
} from "../../contract/index.js";
import { titledExamples } from "../../generator/example-titles.js";
import { type RunningMock, startMock } from "./mock.js";

const integrationId = demo.acme.plainIntegrationId;
const apiKey = "dk_mock_any_key_works";
const validateProblem = createContractAjv().component("Problem");
const validateAnswer = (operationId: string, status: number, contentType: string | undefined, body: unknown) =>
  answerProblems(operationId, { status, contentType, body });

/** A valid request body of an operation: its request example of that title, else its first one. */
function requestBody(operationId: string, title?: string): unknown {
  const { path, method } = operation(operationId);
  const media = document.paths?.[path]?.[method]?.requestBody as
    | { content: Record<string, { examples?: Record<string, { value: unknown }> }> }
    | undefined;
  const examples = media?.content["application/json"]?.examples;
  if (!examples) return undefined;
  return (title !== undefined ? examples[title]?.value : undefined) ?? Object.values(examples)[0]!.value;
}

/** The concrete URL path of an operation: the demo integration, the contract's sample for any other path parameter. */
function concretePath(operationId: string): string {
  return examplePath(operation(operationId), { integration_id: integrationId });
}

let mock: RunningMock;

/** Sends one request to the mock and reads the answer. */
async function call(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string; json?: unknown } = {},
) {
  const headers: Record<string, string> = { "X-Api-Key": apiKey, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${mock.url}${path}`, {
    method: method.toUpperCase(),
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? undefined,
    headers: response.headers,
    body: parsed,
  };
}

beforeAll(async () => {
  mock = await startMock({ port: 0 });
});

afterAll(async () => {
  await mock?.close();
});

describe("npm run mock (static examples)", () => {
  it.each(operationList.map((entry) => [entry.id, entry] as const))(
    "%s answers its success status with a schema-valid body",
    async (operationId, entry) => {
      const result = await call(entry.method, concretePath(entry.id), { json: requestBody(operationId) });
      expect(result.status).toBe(entry.successStatus);
      expect(validateAnswer(operationId, result.status, result.contentType, result.body)).toEqual([]);
    },
  );

  const examples = titledExamples();
  it("the document has titled examples for every operation", () => {
    const covered = new Set(examples.map((example) => example.operationId));
    expect([...covered].sort()).toEqual(operationList.map((entry) => entry.id).sort());
  });

  it.each(examples.map((example) => [`${example.operationId} ${example.status} "${example.title}"`, example] as const))(
    "serves %s with Prefer, exactly and schema-valid",
    async (_name, example) => {
      const prefer = example.success ? `example=${example.title}` : `code=${example.status}, example=${example.title}`;
      const result = await call(example.method, concretePath(example.operationId), {
        headers: { Prefer: prefer },
        json: requestBody(example.operationId, example.title),
      });
      expect(result.status).toBe(example.status);
      expect(result.contentType?.split(";")[0]).toBe(example.contentType);
      expect(result.body).toEqual(example.value);
      expect(validateAnswer(example.operationId, result.status, result.contentType, result.body)).toEqual([]);
    },
  );

  it("serves the first success example when no Prefer header is sent", async () => {
    for (const example of examples.filter((candidate) => candidate.isDefault)) {
      const result = await call(example.method, concretePath(example.operationId), {
        json: requestBody(example.operationId),
      });
      expect({ operation: example.operationId, body: result.body }).toEqual({
        operation: example.operationId,
        body: example.value,
      });
    }
  });
});

const validProvider = requestBody("createOAuthProvider") as Record<string, unknown>;
const validDeployment = requestBody("createDeployment", "External container deployment") as Record<string, unknown>;

/** Invalid requests: each must be rejected with the contract's problem shape, naming what is wrong. */
const invalidRequests: Array<{
  name: string;
  operationId: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  want: { status: number; type: string; errors?: Array<{ pointer?: string; parameter?: string }> };
}> = [
  {
    name: "limit 0",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments?limit=0",
    want: { status: 422, type: "validation", errors: [{ parameter: "limit" }] },
  },
  {
    name: "limit 101",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments?limit=101",
    want: { status: 422, type: "validation", errors: [{ parameter: "limit" }] },
  },
  {
    name: "negative offset",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments?offset=-1",
    want: { status: 422, type: "validation", errors: [{ parameter: "offset" }] },
  },
  {
    name: "unknown status in a comma list",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments?status=READY,BOGUS",
    want: { status: 422, type: "validation", errors: [{ parameter: "status" }] },
  },
  {
    name: "malformed deployment id",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments?deployment_ids=abc",
    want: { status: 422, type: "validation", errors: [{ parameter: "deployment_ids" }] },
  },
  {
    name: "integration id not a uuid",
    operationId: "listCodehostRepositories",
    method: "get",
    path: "/v1/integrations/codehost/not-a-uuid/repos",
    want: { status: 422, type: "validation", errors: [{ parameter: "integration_id" }] },
  },
  {
    name: "provider without token_url",
    operationId: "createOAuthProvider",
    method: "post",
    path: "/v2/auth/providers",
    json: { ...validProvider, token_url: undefined },
    want: { status: 422, type: "validation", errors: [{ pointer: "/token_url" }] },
  },
  {
    name: "deployment name with an underscore",
    operationId: "createDeployment",
    method: "post",
    path: "/v2/deployments",
    json: { ...validDeployment, name: "bad_name" },
    want: { status: 422, type: "validation", errors: [{ pointer: "/name" }] },
  },
  {
    name: "nullable uuid of the wrong type",
    operationId: "createDeployment",
    method: "post",
    path: "/v2/deployments",
    json: { ...validDeployment, source_config: { integration_id: 5 } },
    want: { status: 422, type: "validation", errors: [{ pointer: "/source_config/integration_id" }] },
  },
  {
    // Only rejected because the mock declares jsonSchemaDialect: Prism reads 3.1 schemas as draft-07 otherwise.
    name: "label with a number value (unevaluatedProperties)",
    operationId: "createDeployment",
    method: "post",
    path: "/v2/deployments",
    json: { ...validDeployment, source_config: { resource_spec: { labels: { team: 7 } } } },
    want: { status: 422, type: "validation", errors: [{ pointer: "/source_config/resource_spec/labels/team" }] },
  },
  {
    name: "tenant header not a uuid",
    operationId: "listOAuthProviders",
    method: "get",
    path: "/v2/auth/providers",
    headers: { "X-Tenant-Id": "not-a-uuid" },
    want: { status: 422, type: "validation", errors: [{ parameter: "X-Tenant-Id" }] },
  },
  {
    name: "no API key",
    operationId: "listDeployments",
    method: "get",
    path: "/v2/deployments",
    headers: { "X-Api-Key": "" },
    want: { status: 401, type: "unauthenticated" },
  },
  {
    name: "malformed JSON",
    operationId: "createDeployment",
    method: "post",
    path: "/v2/deployments",
    headers: { "Content-Type": "application/json" },
    body: '{"name":',
    want: { status: 400, type: "malformed-json" },
  },
  {
    name: "text body",
    operationId: "createDeployment",
    method: "post",
    path: "/v2/deployments",
    headers: { "Content-Type": "text/plain" },
    body: "name=x",
    want: { status: 415, type: "unsupported-media-type" },
  },
];

describe("npm run mock rejects invalid requests with the contract's problem shape", () => {
  it.each(invalidRequests.map((request) => [request.name, request] as const))("%s", async (_name, request) => {
    const headers = { ...request.headers };
    const result = await call(request.method, request.path, {
      headers,
      ...(request.json !== undefined ? { json: request.json } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    expect(result.status).toBe(request.want.status);
    const problem = result.body as {
      type: string;
      status: number;
      errors?: Array<{ pointer?: string; parameter?: string }>;
    };
    expect(problem.type).toBe(`urn:deployment-service:problem:${request.want.type}`);
    expect(problem.status).toBe(request.want.status);
    expect(validateProblem(result.body) ? [] : validateProblem.errors).toEqual([]);
    expect(validateAnswer(request.operationId, result.status, result.contentType, result.body)).toEqual([]);
    if (request.want.errors) {
      const named = (problem.errors ?? []).map((error) =>
        error.pointer !== undefined ? { pointer: error.pointer } : { parameter: error.parameter },
      );
      expect(named).toEqual(request.want.errors);
    }
  });

  it("answers HEAD wherever GET is allowed, without a body", async () => {
    const response = await fetch(`${mock.url}/v2/deployments`, { method: "HEAD", headers: { "X-Api-Key": apiKey } });
    expect([response.status, response.headers.get("content-type")?.split(";")[0], await response.text()]).toEqual([
      200,
      "application/json",
      "",
    ]);
  });

  it("answers an unknown route 404 and a wrong method 405 with Allow", async () => {
    const unknown = await call("get", "/v2/nothing-here");
    expect([unknown.status, (unknown.body as { type: string }).type]).toEqual([
      404,
      "urn:deployment-service:problem:not-found",
    ]);
    const wrongMethod = await call("delete", "/v2/deployments");
    expect([wrongMethod.status, (wrongMethod.body as { type: string }).type, wrongMethod.headers.get("allow")]).toEqual(
      [405, "urn:deployment-service:problem:method-not-allowed", "GET, POST, HEAD"],
    );
  });
});

/**
 * Why the mock has a front: Prism 5.14 on its own answers a request violation with whatever 422 the
 * document holds (its first example, whatever the failing field), and malformed JSON with a body of
 * its own (`{"error":{"code":"invalid_json"}}`), not a problem detail. `--raw` serves that.
 */
describe("npm run mock -- --raw (Prism's own error answers)", () => {
  let raw: RunningMock;
  beforeAll(async () => {
    raw = await startMock({ port: 0, raw: true });
  });
  afterAll(async () => {
    await raw?.close();
  });

  it("answers a status filter violation with the document's limit example, not the failing parameter", async () => {
    const response = await fetch(`${raw.url}/v2/deployments?status=BOGUS`, { headers: { "X-Api-Key": apiKey } });
    const problem = (await response.json()) as { errors: Array<{ parameter?: string }> };
    expect([response.status, problem.errors.map((error) => error.parameter)]).toEqual([422, ["limit"]]);
    expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")[0].location).toEqual([
      "request",
      "query",
      "status",
      "0",
    ]);
  });

  it("answers malformed JSON with its own body, not a problem detail", async () => {
    const response = await fetch(`${raw.url}/v2/deployments`, {
      method: "POST",
      headers: { "X-Api-Key": apiKey, "Content-Type": "application/json" },
      body: '{"name":',
    });
    expect([response.status, response.headers.get("content-type"), await response.json()]).toEqual([
      400,
      "application/json; charset=utf-8",
      { error: { code: "invalid_json", message: "Invalid JSON" } },
    ]);
  });
});

/**
 * `--dynamic` generates bodies with Prism's json-schema-faker 0.5.8. It is reliable for providers and
 * repositories; for deployments it fails intermittently (500 "Cannot read properties of undefined
 * (reading 'items')" on nullable arrays of containers) and ignores `unevaluatedProperties` (labels
 * with number values), so deployments are left out here and documented as a known gap.
 */
describe("npm run mock -- --dynamic", () => {
  let dynamic: RunningMock;
  beforeAll(async () => {
    dynamic = await startMock({ port: 0, dynamic: true });
  });
  afterAll(async () => {
    await dynamic?.close();
  });

  const reliable = operationList.filter((entry) => entry.path !== operation("listDeployments").path);
  it.each(reliable.map((entry) => [entry.id, entry] as const))(
    "%s answers generated, schema-valid bodies",
    async (operationId, entry) => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const body = requestBody(operationId);
        const response = await fetch(`${dynamic.url}${concretePath(entry.id)}`, {
          method: entry.method.toUpperCase(),
          headers: { "X-Api-Key": apiKey, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const answer: unknown = await response.json();
        expect(response.status).toBe(entry.successStatus);
        expect(
          validateAnswer(operationId, response.status, response.headers.get("content-type") ?? undefined, answer),
        ).toEqual([]);
      }
    },
  );
});
