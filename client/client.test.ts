/** The generated client against a tiny HTTP server: auth headers, list serialization (D-64), unwrap and ProblemError (D-16). */

import type { IncomingHttpHeaders, Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../contract/index.js";
import type { Problem } from "../generated/client.js";
import { createServiceClient, isProblem, ProblemError, unwrap } from "../generated/client.js";
import type { paths } from "../generated/types.js";

type ListQuery = NonNullable<paths["/v2/deployments"]["get"]["parameters"]["query"]>;

/** What the server saw of the last request. */
interface Seen {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The next answer of the server. */
let reply: { status: number; type: string; body: string } = { status: 200, type: "application/json", body: "[]" };
let seen: Seen | undefined;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen = {
        method: request.method!,
        url: new URL(request.url!, "http://127.0.0.1"),
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      response.writeHead(reply.status, { "content-type": reply.type });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const apiKey = demo.acme.apiKey;
const tenantId = demo.acme.stagingTenantId;
const problem: Problem = {
  type: "urn:deployment-service:problem:validation",
  title: "Request validation failed",
  status: 422,
  detail: "The request parameters break the schema in 1 place; see errors.",
  errors: [{ parameter: "limit", detail: "must be >= 1" }],
};

describe("createServiceClient", () => {
  it.each([
    { given: { tenantId }, want: { key: apiKey, tenant: tenantId } },
    { given: {}, want: { key: apiKey, tenant: undefined } },
  ])("sends X-Api-Key and X-Tenant-Id only when a tenant is given ($want.tenant)", async ({ given, want }) => {
    reply = { status: 200, type: "application/json", body: "[]" };
    const client = createServiceClient({ baseUrl, apiKey, ...given });
    await unwrap(client.GET("/v2/auth/providers"));
    expect(seen!.headers["x-api-key"]).toBe(want.key);
    expect(seen!.headers["x-tenant-id"]).toBe(want.tenant);
    expect(seen!.headers.accept).toContain("application/json");
  });

  it.each<{
    name: string;
    defaults: Record<string, string>;
    call: Record<string, string>;
    want: Record<string, string>;
  }>([
    { name: "a default header", defaults: { "X-Mock-Session": "s1" }, call: {}, want: { "x-mock-session": "s1" } },
    {
      name: "a call's header over the default",
      defaults: { "X-Mock-Session": "s1" },
      call: { "x-mock-session": "s2" },
      want: { "x-mock-session": "s2" },
    },
    {
      name: "apiKey and tenantId over both",
      defaults: { "X-Api-Key": "other", "X-Tenant-Id": "other" },
      call: {},
      want: { "x-api-key": apiKey, "x-tenant-id": tenantId },
    },
    {
      name: "an Accept of its own",
      defaults: { Accept: "application/problem+json" },
      call: {},
      want: { accept: "application/problem+json" },
    },
  ])("sends default headers: $name", async ({ defaults, call, want }) => {
    reply = { status: 200, type: "application/json", body: "[]" };
    const client = createServiceClient({ baseUrl, apiKey, tenantId, headers: defaults });
    await unwrap(client.GET("/v2/auth/providers", { headers: call }));
    for (const [name, value] of Object.entries(want)) expect(seen!.headers[name]).toBe(value);
  });

  it.each([
    { given: undefined, want: /apiKey is undefined \(is the environment variable/ },
    { given: "", want: /apiKey is empty/ },
  ])("refuses a missing key at creation ($given), sending nothing (D-394)", ({ given, want }) => {
    seen = undefined;
    expect(() => createServiceClient({ baseUrl, apiKey: given as unknown as string })).toThrow(want);
    expect(seen).toBeUndefined();
  });

  it.each<{ name: string; given: ListQuery; want: string }>([
    { name: "status", given: { status: ["READY", "UNUSED"] }, want: "READY,UNUSED" },
    {
      name: "deployment_ids",
      given: { deployment_ids: ["7c9e6679-7425-40de-944b-e07fc1f90ae7", "16fd2706-8baf-433b-82eb-8c7fada847da"] },
      want: "7c9e6679-7425-40de-944b-e07fc1f90ae7,16fd2706-8baf-433b-82eb-8c7fada847da",
    },
    {
      name: "tag_value_ids",
      given: { tag_value_ids: ["0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7"] },
      want: "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7",
    },
  ])("serializes the list $name comma-separated, once", async ({ name, given, want }) => {
    reply = { status: 200, type: "application/json", body: JSON.stringify({ resources: [], offset: 0 }) };
    const client = createServiceClient({ baseUrl, apiKey });
    await unwrap(client.GET("/v2/deployments", { params: { query: { limit: 5, ...given } } }));
    expect(seen!.url.searchParams.getAll(name)).toEqual([want]);
    expect(seen!.url.searchParams.get("limit")).toBe("5");
  });

  it("fills path parameters and drops a trailing slash of the base URL", async () => {
    reply = { status: 200, type: "application/json", body: "[]" };
    const client = createServiceClient({ baseUrl: `${baseUrl}/`, apiKey });
    await unwrap(
      client.GET("/v1/integrations/forge/codehost/{integration_id}/repos", {
        params: { path: { integration_id: demo.acme.managedIntegrationId } },
      }),
    );
    expect(seen!.url.pathname).toBe(`/v1/integrations/forge/codehost/${demo.acme.managedIntegrationId}/repos`);
  });

  it("sends a JSON body", async () => {
    const body = {
      name: "starter-chat",
      source: "internal_template" as const,
      source_config: {},
      source_revision_config: {},
      secrets: [],
    };
    reply = {
      status: 201,
      type: "application/json",
      body: JSON.stringify({ ...body, id: "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7" }),
    };
    const client = createServiceClient({ baseUrl, apiKey });
    const created = await unwrap(client.POST("/v2/deployments", { body }));
    expect(seen!.method).toBe("POST");
    expect(seen!.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(seen!.body)).toEqual(body);
    expect(created.id).toBe("0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7");
  });
});

describe("unwrap and ProblemError", () => {
  it.each([
    {
      given: { status: 422, type: "application/problem+json", body: JSON.stringify(problem) },
      want: {
        status: 422,
        problem,
        message: "422 Request validation failed: The request parameters break the schema in 1 place; see errors.",
      },
    },
    {
      given: { status: 502, type: "text/plain", body: "Bad gateway" },
      want: { status: 502, problem: undefined, message: "HTTP 502" },
    },
    {
      given: { status: 401, type: "application/json", body: JSON.stringify({ message: "no" }) },
      want: { status: 401, problem: undefined, message: "HTTP 401" },
    },
  ])("rejects a $given.status ($given.type) with a ProblemError", async ({ given, want }) => {
    reply = given;
    const client = createServiceClient({ baseUrl, apiKey });
    const error = await unwrap(client.GET("/v2/deployments", { params: { query: { limit: 0 } } })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProblemError);
    const problemError = error as ProblemError;
    expect(problemError.status).toBe(want.status);
    expect(problemError.problem).toEqual(want.problem);
    expect(problemError.message).toBe(want.message);
    expect(problemError.response.status).toBe(want.status);
  });

  it("gives the typed problem as `error` without unwrap", async () => {
    reply = { status: 422, type: "application/problem+json", body: JSON.stringify(problem) };
    const client = createServiceClient({ baseUrl, apiKey });
    const { data, error } = await client.GET("/v2/deployments", { params: { query: { limit: 0 } } });
    expect(data).toBeUndefined();
    expect(isProblem(error)).toBe(true);
    expect(error?.errors?.[0]?.parameter).toBe("limit");
  });

  it.each([
    { given: problem, want: true },
    { given: { type: "urn:x", status: "422" }, want: false },
    { given: null, want: false },
    { given: "problem", want: false },
  ])("isProblem($given) is $want", ({ given, want }) => {
    expect(isProblem(given)).toBe(want);
  });
});
