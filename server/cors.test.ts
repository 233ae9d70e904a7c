/** CORS (D-132): the policy table, and a preflight from http://localhost:5173 answered by the reference server (the mock engine tests its own). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CorsPolicy, corsAnswer, corsPolicyFromEnv } from "./cors.js";
import { listFromPage, preflightCreate } from "./testing/cors-probe.js";
import { acmeKey, startTestServer, type TestServer } from "./testing/test-server.js";

const demo: CorsPolicy = {
  origins: ["https://console.example.com"],
  loopback: true,
  extraRequestHeaders: [],
  extraMethods: [],
};
const production: CorsPolicy = {
  origins: ["https://console.example.com"],
  loopback: false,
  extraRequestHeaders: [],
  extraMethods: [],
};
const preflight = { method: "OPTIONS", requestMethod: "POST" };

describe("corsAnswer", () => {
  it.each([
    {
      name: "listed origin, preflight",
      policy: production,
      given: { ...preflight, origin: "https://console.example.com" },
      want: "preflight",
    },
    {
      name: "listed origin, answer",
      policy: production,
      given: { method: "GET", requestMethod: undefined, origin: "https://console.example.com" },
      want: "answer",
    },
    {
      name: "loopback in demo mode",
      policy: demo,
      given: { ...preflight, origin: "http://localhost:5173" },
      want: "preflight",
    },
    {
      name: "127.0.0.1 in demo mode",
      policy: demo,
      given: { ...preflight, origin: "http://127.0.0.1:3000" },
      want: "preflight",
    },
    {
      name: "[::1] in demo mode",
      policy: demo,
      given: { ...preflight, origin: "http://[::1]:8080" },
      want: "preflight",
    },
    {
      name: "loopback outside demo mode",
      policy: production,
      given: { ...preflight, origin: "http://localhost:5173" },
      want: "none",
    },
    {
      name: "https loopback is not a development origin",
      policy: demo,
      given: { ...preflight, origin: "https://localhost:5173" },
      want: "none",
    },
    {
      name: "a host that merely starts with localhost",
      policy: demo,
      given: { ...preflight, origin: "http://localhost.evil.example" },
      want: "none",
    },
    { name: "unlisted origin", policy: demo, given: { ...preflight, origin: "https://evil.example" }, want: "none" },
    { name: "no origin", policy: demo, given: { ...preflight, origin: undefined }, want: "none" },
    {
      name: "OPTIONS without Access-Control-Request-Method is no preflight",
      policy: demo,
      given: { method: "OPTIONS", requestMethod: undefined, origin: "http://localhost:5173" },
      want: "answer",
    },
  ])("$name → $want", ({ policy, given, want }) => {
    const answer = corsAnswer(policy, given);
    expect(answer === undefined ? "none" : answer.preflight ? "preflight" : "answer").toBe(want);
    if (answer) expect(answer.headers["Access-Control-Allow-Origin"]).toBe(given.origin);
  });

  it("reads CORS_ORIGINS and refuses an entry that is not an origin", () => {
    expect(corsPolicyFromEnv({ CORS_ORIGINS: " https://a.example , https://b.example:8443" }, false)).toEqual({
      origins: ["https://a.example", "https://b.example:8443"],
      loopback: false,
      extraRequestHeaders: [],
      extraMethods: [],
    });
    expect(() => corsPolicyFromEnv({ CORS_ORIGINS: "https://a.example/app" }, false)).toThrow(/not an origin/);
  });
});

describe("a preflight from http://localhost:5173 over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ demo: true });
  });
  afterAll(() => server.close());

  it("answers 204 with the origin, methods and headers", async () => {
    expect(await preflightCreate(server.url, "content-type,x-api-key,x-tenant-id,prefer")).toMatchObject({
      status: 204,
      allowOrigin: "http://localhost:5173",
      allowMethods: "GET, POST",
      allowHeaders: "Content-Type, X-Api-Key, X-Tenant-Id, Prefer, X-Request-Id",
    });
  });

  it("exposes Retry-After and X-Request-Id on an answer", async () => {
    expect(await listFromPage(server.url, acmeKey)).toMatchObject({
      status: 200,
      allowOrigin: "http://localhost:5173",
      exposeHeaders: "Retry-After, X-Request-Id, Allow",
    });
  });

  it("sends no CORS header to an unlisted origin", async () => {
    const response = await fetch(`${server.url}/v2/deployments`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
