/** Each corpus fault changes the exchange of the value class it aims at and leaves another value of the field alone. */
import { describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { faults } from "./catalog.js";
import { corpusFaults } from "./corpus-catalog.js";
import { jsonFaults } from "./json-catalog.js";
import { lawFaults } from "./law-catalog.js";
import { propertyFaults } from "./property-catalog.js";
import type { ProxyRequest, ProxyResponse } from "./proxy.js";
import { subtleFaults } from "./subtle-catalog.js";

const fault = (id: string) => corpusFaults.find((f) => f.id === id)!;
const providers = operation("createOAuthProvider").path;
const deployments = operation("createDeployment").path;

function request(method: string, target: string, json?: unknown): ProxyRequest {
  const body = json === undefined ? "" : JSON.stringify(json);
  return {
    method,
    url: new URL(target, "http://proxy.invalid"),
    target,
    headers: { "content-type": "application/json" },
    rawHeaderNames: ["Content-Type"],
    body,
    rawBody: Buffer.from(body),
    json,
    connection: {},
  };
}

const answer = (json: unknown): ProxyResponse => ({ status: 200, headers: {}, body: JSON.stringify(json) });

it("corpus faults have ids no other catalog uses", () => {
  const ids = [...faults, ...subtleFaults, ...propertyFaults, ...lawFaults, ...jsonFaults, ...corpusFaults].map(
    (f) => f.id,
  );
  expect(new Set(ids).size).toBe(ids.length);
});

describe("request faults", () => {
  const cases: { id: string; given: string; req: ProxyRequest; refused: boolean; query?: string | null }[] = [
    {
      id: "provider-id-punctuation-refused",
      given: "a provider_id with a colon",
      req: request("POST", providers, { provider_id: "a:b" }),
      refused: true,
    },
    {
      id: "provider-id-punctuation-refused",
      given: "a plain provider_id",
      req: request("POST", providers, { provider_id: "a-b" }),
      refused: false,
    },
    {
      id: "multibyte-max-length-refused",
      given: "a name of 255 two-byte characters",
      req: request("POST", providers, { name: "é".repeat(255) }),
      refused: true,
    },
    {
      id: "multibyte-max-length-refused",
      given: "a name of 255 ASCII characters",
      req: request("POST", providers, { name: "e".repeat(255) }),
      refused: false,
    },
    {
      id: "multibyte-max-length-refused",
      given: "a graph_config_path of 1,024 four-byte characters",
      req: request("POST", deployments, { source_revision_config: { graph_config_path: "😀".repeat(1024) } }),
      refused: true,
    },
    {
      id: "name-contains-short-ignored",
      given: "a needle of two characters",
      req: request("GET", `${deployments}?name_contains=ab`),
      refused: false,
      query: null,
    },
    {
      id: "name-contains-short-ignored",
      given: "a needle of three characters",
      req: request("GET", `${deployments}?name_contains=abc`),
      refused: false,
      query: "abc",
    },
    {
      id: "name-contains-accent-folded",
      given: "an accented needle",
      req: request("GET", `${deployments}?name_contains=${encodeURIComponent("cáfe")}`),
      refused: false,
      query: "cafe",
    },
  ];
  for (const c of cases)
    it(`${c.id}: ${c.given}`, () => {
      const got = fault(c.id).request!(c.req);
      expect(got?.status).toBe(c.refused ? 422 : undefined);
      if (c.query !== undefined) expect(c.req.url.searchParams.get("name_contains")).toBe(c.query);
    });
});

describe("response faults", () => {
  const cases: { id: string; given: string; req: ProxyRequest; res: unknown; want: unknown }[] = [
    {
      id: "client-id-numeric-coerced",
      given: "a client_id of digits",
      req: request("GET", providers),
      res: [{ id: "p", client_id: "12345" }],
      want: [{ id: "p", client_id: 12345 }],
    },
    {
      id: "client-id-numeric-coerced",
      given: "a client_id of text",
      req: request("POST", providers),
      res: { id: "p", client_id: "app-1" },
      want: { id: "p", client_id: "app-1" },
    },
    {
      id: "args-inner-spaces-split",
      given: "args with an inner space, an edge space and an empty item",
      req: request("GET", deployments),
      res: { resources: [{ id: "d", source_config: { resource_spec: { sidecars: [{ args: ["a b", " c", ""] }] } } }] },
      want: {
        resources: [{ id: "d", source_config: { resource_spec: { sidecars: [{ args: ["a", "b", " c", ""] }] } } }],
      },
    },
  ];
  for (const c of cases)
    it(`${c.id}: ${c.given}`, async () => {
      const res = answer(c.res);
      const got = (await fault(c.id).response!(c.req, res, async () => res)) ?? res;
      expect(JSON.parse(got.body)).toEqual(c.want);
    });
});
