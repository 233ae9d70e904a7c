/** The sandbox's CORS (D-132): a preflight from http://localhost:5173 is allowed the session header (D-79) and its own API's PUT and DELETE (D-320) too. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "../../../contract/index.js";
import { listFromPage, preflightCreate } from "../../../server/testing/cors-probe.js";
import { type RunningMemorySandbox, startMemorySandbox } from "./memory-sandbox-server.js";

describe("a preflight from http://localhost:5173 to the sandbox", () => {
  let sandbox: RunningMemorySandbox;
  beforeAll(async () => {
    sandbox = await startMemorySandbox();
  });
  afterAll(() => sandbox.close());

  it("answers 204 with the origin, methods and headers, X-Mock-Session, PUT and DELETE among them", async () => {
    expect(
      await preflightCreate(sandbox.url, "content-type,x-api-key,x-tenant-id,prefer,x-mock-session"),
    ).toMatchObject({
      status: 204,
      allowOrigin: "http://localhost:5173",
      allowMethods: "GET, POST, PUT, DELETE",
      allowHeaders: "Content-Type, X-Api-Key, X-Tenant-Id, Prefer, X-Request-Id, X-Mock-Session",
    });
  });

  it("exposes Retry-After and X-Request-Id on an answer", async () => {
    expect(await listFromPage(sandbox.url, demo.acme.apiKey)).toMatchObject({
      status: 200,
      allowOrigin: "http://localhost:5173",
      exposeHeaders: "Retry-After, X-Request-Id, Allow",
    });
  });
});
