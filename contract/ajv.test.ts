/** The one format policy of the contract's Ajv (D-78), and the options each user of it relies on. */
import { describe, expect, it } from "vitest";
import { createContractAjv } from "./ajv.js";

describe("format policy", () => {
  const ajv = createContractAjv();
  const cases: Array<{ given: { format: string; value: unknown }; want: boolean }> = [
    { given: { format: "uuid", value: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65" }, want: true },
    { given: { format: "uuid", value: "3F1C2A9E-5B7D-4E2F-8A6C-1D0E9B8A7C65" }, want: true },
    { given: { format: "uuid", value: "urn:uuid:3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65" }, want: false },
    { given: { format: "uuid", value: "{3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65}" }, want: false },
    { given: { format: "int32", value: 2 ** 31 - 1 }, want: true },
    { given: { format: "int32", value: 2 ** 31 }, want: false },
    { given: { format: "int32", value: 1.5 }, want: false },
    { given: { format: "int64", value: Number.MAX_SAFE_INTEGER }, want: true },
    { given: { format: "int64", value: 2 ** 60 }, want: false },
    { given: { format: "double", value: 0.5 }, want: true },
    { given: { format: "float", value: 1e10 }, want: true },
    { given: { format: "date-time", value: "2026-01-02T03:04:05.123Z" }, want: true },
    { given: { format: "date-time", value: "2026-01-02 03:04:05" }, want: false },
    { given: { format: "uri", value: "https://example.com/a" }, want: true },
    { given: { format: "uri", value: "not a uri" }, want: false },
  ];
  it.each(cases)("$given.format $given.value → $want", ({ given, want }) => {
    const type = typeof given.value === "number" ? "number" : "string";
    expect(ajv.compile({ type, format: given.format })(given.value)).toBe(want);
  });
});

describe("createContractAjv", () => {
  it("resolves component schemas and the document's own refs", () => {
    const validate = createContractAjv().component("DeploymentList");
    expect(validate({ resources: [], offset: 0 })).toBe(true);
    expect(validate({ resources: [{}], offset: 0 })).toBe(false);
  });

  it("removes unknown fields and applies defaults when asked, and only then", () => {
    const body = {
      provider_id: "p",
      name: "n",
      client_id: "c",
      auth_url: "https://a.example",
      token_url: "https://t.example",
      surprise: 1,
    };
    const closed = { ...body };
    expect(
      createContractAjv({ removeUnknownFields: true, useDefaults: true }).component("OAuthProviderCreate")(closed),
    ).toBe(true);
    expect(closed).not.toHaveProperty("surprise");
    expect(closed).toMatchObject({
      uses_pkce: false,
      code_challenge_method: "S256",
      token_endpoint_auth_method: "client_secret_post",
    });
    const open = { ...body };
    createContractAjv().component("OAuthProviderCreate")(open);
    expect(open).toEqual(body);
  });

  it("coerces parameters only when asked", () => {
    const schema = { type: "object", properties: { limit: { type: "integer" } } };
    const coerced = { limit: "5" };
    expect(createContractAjv({ coerceParameters: true }).compile(schema)(coerced)).toBe(true);
    expect(coerced.limit).toBe(5);
    expect(createContractAjv().compile(schema)({ limit: "5" })).toBe(false);
  });
});
