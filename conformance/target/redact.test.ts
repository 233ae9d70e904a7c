/** Tests of redaction: keys and secrets never appear in recorded exchanges. */
import { describe, expect, it } from "vitest";
import { maskDeep, REDACTED, redactBody, redactHeaders, redactJson } from "./redact.js";

describe("redactHeaders", () => {
  const cases: { given: Record<string, string>; want: Record<string, string> }[] = [
    {
      given: { "X-Api-Key": "dk_1", Accept: "application/json" },
      want: { "X-Api-Key": REDACTED, Accept: "application/json" },
    },
    {
      given: { "x-api-key": "dk_1", authorization: "Bearer t" },
      want: { "x-api-key": REDACTED, authorization: REDACTED },
    },
    {
      given: { "X-Tenant-Id": "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f" },
      want: { "X-Tenant-Id": "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f" },
    },
  ];
  for (const c of cases) it(JSON.stringify(c.given), () => expect(redactHeaders(c.given)).toEqual(c.want));
});

describe("redactJson", () => {
  const cases = [
    {
      name: "client_secret",
      given: { client_id: "c", client_secret: "s" },
      want: { client_id: "c", client_secret: REDACTED },
    },
    {
      name: "nested secret values",
      given: { secrets: [{ name: "A", value: "v" }] },
      want: { secrets: [{ name: "A", value: REDACTED }] },
    },
    { name: "null secret stays null", given: { client_secret: null }, want: { client_secret: null } },
    { name: "arrays of providers", given: [{ client_secret: "x" }], want: [{ client_secret: REDACTED }] },
  ];
  for (const c of cases) it(c.name, () => expect(redactJson(c.given)).toEqual(c.want));
});

describe("redactBody", () => {
  it("redacts JSON fields and known literal secrets in text", () => {
    expect(redactBody('{"client_secret":"abc123"}')).toBe(`{"client_secret":"${REDACTED}"}`);
    expect(redactBody("error: key dk_demo_secret is unknown", ["dk_demo_secret"])).toBe(
      `error: key ${REDACTED} is unknown`,
    );
    expect(redactBody('{"detail":"bad key dk_demo_secret"}', ["dk_demo_secret"])).not.toContain("dk_demo_secret");
  });
  it("leaves short literals alone (no accidental masking of common text)", () => {
    expect(redactBody("abc", ["a"])).toBe("abc");
  });
});

describe("the user's secrets and the contract's secret fields (D-390, D-392)", () => {
  const secrets = ['dk_"quoted"_key', "gw-token-1234"];
  const cases: { given: string; text: string; want: string }[] = [
    { given: "a cut JSON body", text: '[{"client_secret":"abc', want: `[{"client_secret":"${REDACTED}"` },
    { given: "a key echoed JSON-escaped", text: '{"k":"dk_\\"quoted\\"_key"}', want: `{"k":"${REDACTED}"}` },
    { given: "a token echoed percent-encoded", text: "u=gw-token-1234&x", want: `u=${REDACTED}&x` },
  ];
  for (const c of cases) it(c.given, () => expect(redactBody(c.text, secrets)).toBe(c.want));
  it("masks a secret echoed in any header, and every -H header by name", () => {
    expect(redactHeaders({ "X-Echo": "got gw-token-1234", "X-Gw": "on" }, ["x-gw"], secrets)).toEqual({
      "X-Echo": `got ${REDACTED}`,
      "X-Gw": REDACTED,
    });
  });
  it("masks every string of a report, keys of objects included", () => {
    expect(maskDeep({ a: ["gw-token-1234"], "gw-token-1234": 1 }, secrets)).toEqual({ a: [REDACTED], [REDACTED]: 1 });
  });
});
