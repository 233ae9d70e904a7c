/** A client unit test with no server: the typed client against the contract's MSW handlers. */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, ProblemError, type ServiceClient, unwrap } from "../generated/client.js";
import { contractHandlers } from "../mock/src/msw-handlers.js";

const baseUrl = "http://deployments.test";
const mock = setupServer(...contractHandlers({ baseUrl }));
let client: ServiceClient;
beforeAll(() => {
  mock.listen({ onUnhandledRequest: "error" });
  // After listen: openapi-fetch keeps the fetch it finds when the client is created, and MSW replaces it.
  client = createServiceClient({ baseUrl, apiKey: "any-key" });
});
afterAll(() => mock.close());

describe("typed client against the MSW handlers", () => {
  it("lists deployments from the titled example", async () => {
    const page = await unwrap(client.GET("/v2/deployments", { params: { query: { limit: 5 } } }));
    expect(page.resources.length).toBeGreaterThan(0);
    expect(typeof page.offset).toBe("number");
  });

  it("answers an invalid body with the reference server's 422 problem", async () => {
    const call = client.POST("/v2/deployments", {
      body: {
        name: "1-starts-with-a-digit",
        source: "internal_template",
        source_config: {},
        source_revision_config: {},
        secrets: [],
      },
    });
    const error = await unwrap(call).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(422);
    expect((error as ProblemError).problem?.errors).toEqual([expect.objectContaining({ pointer: "/name" })]);
  });

  it("answers invalid parameters and a missing key as the server does", async () => {
    const { response } = await client.GET("/v2/deployments", { params: { query: { limit: 101 } } });
    expect(response.status).toBe(422);
    const anonymous = createServiceClient({ baseUrl, apiKey: " " });
    expect((await anonymous.GET("/v2/auth/providers")).response.status).toBe(401);
  });

  it("honours Prefer: code= and example=", async () => {
    const conflict = await client.POST("/v2/deployments", {
      body: { name: "taken", source: "internal_template", source_config: {}, source_revision_config: {}, secrets: [] },
      headers: { Prefer: "code=409" },
    });
    expect(conflict.response.status).toBe(409);
    expect(conflict.error).toMatchObject({ status: 409, type: "urn:deployment-service:problem:conflict" });
    const external = await client.POST("/v2/deployments", {
      body: { name: "x", source: "internal_template", source_config: {}, source_revision_config: {}, secrets: [] },
      headers: { Prefer: 'example="External container deployment"' },
    });
    expect(external.data?.source).toBe("external_container");
  });
});
