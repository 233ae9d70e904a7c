/** Each JSON fault changes what the server receives or what a client reads, and leaves a well-formed exchange alone. */
import { describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { jsonFaults } from "./json-catalog.js";
import type { ProxyRequest, ProxyResponse } from "./proxy.js";

const fault = (id: string) => jsonFaults.find((f) => f.id === id)!;

function request(body: string, path = operation("createOAuthProvider").path, method = "POST"): ProxyRequest {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return {
    method,
    url: new URL(path, "http://proxy.invalid"),
    target: path,
    headers: { "content-type": "application/json" },
    rawHeaderNames: ["Content-Type"],
    body,
    rawBody: Buffer.from(body),
    json,
    connection: {},
  };
}

/** What the upstream gets: the body's text when the fault rewrote it, else the JSON it rewrote, else the body as sent. */
function forwarded(id: string, req: ProxyRequest): unknown {
  const before = req.body;
  const json = JSON.stringify(req.json);
  fault(id).request!(req);
  if (req.body !== before) return JSON.parse(req.body);
  if (req.json !== undefined && JSON.stringify(req.json) !== json) return req.json;
  return before;
}

describe("request faults", () => {
  const cases: { id: string; given: string; body: string; path?: string; want: unknown }[] = [
    { id: "json-comments-accepted", given: "a line comment", body: '{"a":1 // x\n}', want: { a: 1 } },
    { id: "json-comments-accepted", given: "a block comment", body: '{/* x */"a":1}', want: { a: 1 } },
    { id: "json-comments-accepted", given: "a // inside a string", body: '{"a":"//x"}', want: '{"a":"//x"}' },
    { id: "json-comments-accepted", given: "an unclosed comment", body: '{"a":1 /* x}', want: '{"a":1 /* x}' },
    { id: "json-comments-accepted", given: "single quotes", body: "{'a':1}", want: "{'a':1}" },
    { id: "json-trailing-comma-accepted", given: "a trailing comma", body: '{"a":[1,2,],}', want: { a: [1, 2] } },
    { id: "json-trailing-comma-accepted", given: "a comma in a string", body: '{"a":",}"}', want: '{"a":",}"}' },
    {
      id: "json-trailing-comma-accepted",
      given: "a body sent elsewhere",
      body: "[1,]",
      path: "/v2/cf-no-such-route",
      want: "[1,]",
    },
    {
      id: "member-names-case-insensitive",
      given: "a required member in capitals",
      body: '{"PROVIDER_ID":"p","name":"n"}',
      want: { provider_id: "p", name: "n" },
    },
    {
      id: "member-names-case-insensitive",
      given: "both spellings",
      body: '{"Name":"a","name":"b"}',
      want: '{"Name":"a","name":"b"}',
    },
    {
      id: "booleans-coerced-from-text",
      given: "a boolean as text",
      body: '{"provider_id":"p","uses_pkce":"true"}',
      want: { provider_id: "p", uses_pkce: true },
    },
    {
      id: "booleans-coerced-from-text",
      given: "a nested number as text",
      body: '{"name":"d","source_config":{"resource_spec":{"min_scale":"1"},"build_on_push":"0"}}',
      path: operation("createDeployment").path,
      want: { name: "d", source_config: { resource_spec: { min_scale: 1 }, build_on_push: false } },
    },
    {
      id: "booleans-coerced-from-text",
      given: "a string member that reads as a boolean",
      body: '{"client_id":"true"}',
      want: '{"client_id":"true"}',
    },
  ];
  for (const c of cases)
    it(`${c.id}: ${c.given}`, () => expect(forwarded(c.id, request(c.body, c.path))).toEqual(c.want));
});

describe("answer-member-repeated", () => {
  const answer = (status: number, body: string): ProxyResponse => ({ status, headers: {}, body });
  const cases: { given: string; res: ProxyResponse; want: string | undefined }[] = [
    { given: "a record", res: answer(200, '{"id":"a","n":1}'), want: '{"id":null,"id":"a","n":1}' },
    { given: "a list", res: answer(200, '[{"id":"a"}]'), want: '[{"id":null,"id":"a"}]' },
    { given: "an empty object", res: answer(200, "{}"), want: "{}" },
    { given: "a problem", res: answer(422, '{"type":"x"}'), want: undefined },
  ];
  for (const c of cases)
    it(c.given, async () => {
      const got = await fault("answer-member-repeated").response!(request(""), c.res, async () => c.res);
      expect(got?.body).toBe(c.want);
      if (got) expect(JSON.parse(got.body)).toEqual(JSON.parse(c.res.body));
    });
});
