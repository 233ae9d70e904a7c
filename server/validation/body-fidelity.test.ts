/** D-281 over HTTP on both stores: a body parsing would change is refused (422 naming the place, 400 for bytes that are not UTF-8), nothing stored; the same body within the bounds is stored and answered as sent. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { maxJsonDepth } from "../../contract/json-fidelity.js";
import { bodyFor } from "../testing/fixtures.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";

const deployments = operation("createDeployment").path;
const providers = operation("createOAuthProvider").path;
const json = { "content-type": "application/json" };

/** A create body whose resource_spec holds a free-form object written as `securityContext`'s raw JSON text. */
function withSecurityContext(name: string, securityContext: string): string {
  const body = bodyFor("external_container", name);
  const text = JSON.stringify({
    ...body,
    source_config: {
      custom_url: "https://billing.example",
      resource_spec: { sidecars: [{ name: "s", image: "i", securityContext: "@" }] },
    },
  });
  return text.replace('"@"', securityContext);
}

/** Objects nested `levels` deep under `securityContext` (the body itself, source_config, resource_spec, sidecars, the sidecar: 5 levels above it, so it is level 6). */
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;

describe("bodies that parsing would change (D-281)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ hosting: "self_hosted" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    [
      "an integer beyond 2^53",
      '{"runAsUser":9007199254740993}',
      "/source_config/resource_spec/sidecars/0/securityContext/runAsUser",
    ],
    [
      "a number beyond a float's range",
      '{"runAsUser":1e400}',
      "/source_config/resource_spec/sidecars/0/securityContext/runAsUser",
    ],
    [
      "1,700 levels of nesting",
      nestedObject(1700),
      `/source_config/resource_spec/sidecars/0/securityContext${"/a".repeat(maxJsonDepth - 5)}`,
    ],
    [
      `${maxJsonDepth - 4} levels of nesting`,
      nestedObject(maxJsonDepth - 4),
      `/source_config/resource_spec/sidecars/0/securityContext${"/a".repeat(maxJsonDepth - 5)}`,
    ],
  ])("refuses %s with 422 naming the place, nothing stored", async (_, value, pointer) => {
    const name = `fidelity-${Math.random().toString(36).slice(2, 8)}`;
    const answer = await server.request("POST", deployments, {
      rawBody: withSecurityContext(name, value),
      headers: json,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual([pointer]);
    const listed = await server.request("GET", `${deployments}?name_contains=${name}`);
    expect(listed.body.resources).toEqual([]);
  });

  it.each([
    ["2^53", '{"runAsUser":9007199254740992}', { runAsUser: 9007199254740992 }],
    [
      `${maxJsonDepth - 5} levels of nesting`,
      nestedObject(maxJsonDepth - 5),
      JSON.parse(nestedObject(maxJsonDepth - 5)),
    ],
  ])("stores %s as sent", async (_, value, expected) => {
    const name = `kept-${Math.random().toString(36).slice(2, 8)}`;
    const answer = await server.request("POST", deployments, {
      rawBody: withSecurityContext(name, value),
      headers: json,
    });
    expect(answer.status).toBe(201);
    const listed = await server.request("GET", `${deployments}?name_contains=${name}`);
    expect(listed.body.resources[0].source_config.resource_spec.sidecars[0].securityContext).toEqual(expected);
  });

  it.each([
    ["a lone continuation byte", Buffer.from([0x80])],
    ["an overlong encoding", Buffer.from([0xc0, 0xaf])],
    ["a truncated sequence", Buffer.from([0xe2, 0x82])],
  ])("refuses %s in a body with 400, nothing stored", async (_, bad) => {
    const body = Buffer.concat([
      Buffer.from('{"provider_id":"utf8-'),
      bad,
      Buffer.from(
        '","name":"n","client_id":"c","client_secret":"s","auth_url":"https://a.example/auth","token_url":"https://a.example/token"}',
      ),
    ]);
    const answer = await server.request("POST", providers, { rawBody: body, headers: json });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/UTF-8/);
    const listed = await server.request("GET", providers);
    expect(JSON.stringify(listed.body)).not.toContain("utf8-");
  });
});
