/** What a create keeps of its body, and what an optional field it leaves out is answered as (D-401, D-482). */
import { describe, expect, it } from "vitest";
import { recordFieldsOf, withLeftOutFields } from "./record-fields.js";

describe("withLeftOutFields", () => {
  it.each([
    {
      name: "a deployment without secret_references answers it null, after the fields given",
      schema: "Deployment" as const,
      given: { name: "d", image_version: "1.2" },
      want: { name: "d", image_version: "1.2", secret_references: null },
    },
    {
      name: "a field given as undefined is answered as left out",
      schema: "Deployment" as const,
      given: { name: "d", image_version: undefined, secret_references: [] },
      want: { name: "d", secret_references: [], image_version: null },
    },
    {
      name: "a provider's optional fields: their defaults, else null",
      schema: "OAuthProvider" as const,
      given: { name: "p" },
      want: {
        name: "p",
        provider_type: null,
        mcp_server_url: null,
        token_endpoint_auth_method: "client_secret_post",
        is_dynamic_client: false,
      },
    },
    {
      name: "values given are kept, null among them",
      schema: "OAuthProvider" as const,
      given: { provider_type: "slack", mcp_server_url: null, token_endpoint_auth_method: "x", is_dynamic_client: true },
      want: { provider_type: "slack", mcp_server_url: null, token_endpoint_auth_method: "x", is_dynamic_client: true },
    },
  ])("$name", ({ schema, given, want }) => {
    const answered = withLeftOutFields(schema, given);
    expect(answered).toEqual(want);
    expect(Object.keys(answered)).toEqual(Object.keys(want));
  });
});

describe("recordFieldsOf", () => {
  it.each([
    { name: "a write-only field is dropped", given: { name: "p", client_secret: "s" }, want: { name: "p" } },
    { name: "a field the record has is kept", given: { provider_type: "slack" }, want: { provider_type: "slack" } },
  ])("$name", ({ given, want }) => {
    expect(recordFieldsOf("OAuthProvider", given)).toEqual(want);
  });
});
