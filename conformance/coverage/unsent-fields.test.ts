/** The coverage names each declared request field and query parameter no request sent non-null, and only those. */
import { describe, expect, it } from "vitest";
import { unsentFields } from "./unsent-fields.js";

const operations = [
  {
    id: "create",
    parameters: [],
    requestBody: {
      mediaType: "application/json",
      pointer: "",
      required: true,
      schema: {
        type: "object" as const,
        properties: { name: { type: "string" as const }, spec: { type: "object" as const } },
      },
    },
  },
  { id: "list", parameters: [{ name: "limit", in: "query" as const, required: false, explode: false, schema: {} }] },
];

describe("unsentFields", () => {
  it.each([
    { sent: [], sendable: undefined, want: ["create name", "create spec", "list query.limit"] },
    { sent: [["create name"], ["list query.limit", "other x"]], sendable: undefined, want: ["create spec"] },
    { sent: [["create name"]], sendable: (_: string, field: string) => field !== "spec", want: ["list query.limit"] },
  ])("sent $sent", ({ sent, sendable, want }) => {
    expect(
      unsentFields(
        sent.map((sentFields) => ({ sentFields })),
        operations,
        sendable,
      ),
    ).toEqual(want);
  });
});
