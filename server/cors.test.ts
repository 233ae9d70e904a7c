/** CORS (D-132): the policy table, and a preflight from http://localhost:5173 answered by the reference server and the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningMemorySandbox as RunningSandbox,
  startMemorySandbox as startSandbox,
} from "../mock/src/engine/memory-sandbox-server.js";
import { type CorsPolicy, corsAnswer, corsPolicyFromEnv } from "./cors.js";
import { acmeKey, startTestServer, type TestServer } from "./testing/test-server.js";

const demo: CorsPolicy = { origins: ["https://console.example.com"], loopback: true };
const production: CorsPolicy = { origins: ["https://console.example.com"], loopback: false };
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
    });
    expect(() => corsPolicyFromEnv({ CORS_ORIGINS: "https://a.example/app" }, false)).toThrow(/not an origin/);
  });
});

describe("a preflight from http://localhost:5173 over HTTP", () => {
  let server: TestServer;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    [server, sandbox] = await Promise.all([startTestServer({ demo: true }), startSandbox()]);
  });
  afterAll(async () => {
    await Promise.all([server.close(), sandbox.close()]);
  });

  it.each(["reference server", "sandbox"])("%s answers 204 with the origin, methods and headers", async (target) => {
    const url = target === "sandbox" ? sandbox.url : server.url;
    const response = await fetch(`${url}/v2/deployments`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-api-key,x-tenant-id,prefer,x-mock-session",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST");
    // The sandbox adds its session header (D-79); the reference server knows no such header.
    expect(response.headers.get("access-control-allow-headers")).toBe(
      `Content-Type, X-Api-Key, X-Tenant-Id, Prefer, X-Request-Id${target === "sandbox" ? ", X-Mock-Session" : ""}`,
    );
  });

  it.each(["reference server", "sandbox"])("%s exposes Retry-After and X-Request-Id on an answer", async (target) => {
    const url = target === "sandbox" ? sandbox.url : server.url;
    const response = await fetch(`${url}/v2/deployments`, {
      headers: { Origin: "http://localhost:5173", "X-Api-Key": acmeKey },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-expose-headers")).toBe("Retry-After, X-Request-Id, Allow");
  });

  it("the reference server sends no CORS header to an unlisted origin", async () => {
    const response = await fetch(`${server.url}/v2/deployments`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
