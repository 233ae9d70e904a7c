/** The optional record fields `npm run generate` names: neither a default nor null to be answered as (D-482). */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldsLeftOutWhenNotSent, leftOutFieldAdvice } from "./left-out-fields.js";

const documentText = readFileSync(join(resolve(import.meta.dirname, ".."), "generated", "openapi.json"), "utf8");

describe("fieldsLeftOutWhenNotSent", () => {
  it.each([
    { name: "the committed contract", given: {}, want: [] },
    { name: "an optional string", given: { description: { type: "string" } }, want: ["Deployment.description"] },
    {
      name: "an optional string or null",
      given: { description: { anyOf: [{ type: "string" }, { type: "null" }] } },
      want: [],
    },
    { name: "a type array with null", given: { description: { type: ["string", "null"] } }, want: [] },
    { name: "an optional field with a default", given: { region: { type: "string", default: "eu" } }, want: [] },
  ])("$name", ({ given, want }) => {
    const document = JSON.parse(documentText);
    Object.assign(document.components.schemas.Deployment.properties, given);
    expect(fieldsLeftOutWhenNotSent(document)).toEqual(want);
    expect(leftOutFieldAdvice(document) === "").toBe(want.length === 0);
  });

  it("leaves a required field alone", () => {
    const document = JSON.parse(documentText);
    document.components.schemas.OAuthProvider.properties.region = { type: "string" };
    document.components.schemas.OAuthProvider.required.push("region");
    expect(fieldsLeftOutWhenNotSent(document)).toEqual([]);
  });
});
