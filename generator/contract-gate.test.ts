/** The gate lists and counts a change once (D-402): what the interface level finds again is not repeated. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyChanges } from "./contract-classify.js";
import { dereference, type Json } from "./contract-dereference.js";
import { onlyAtInterfaceLevel } from "./contract-gate.js";
import { interfaceLevel } from "./interface-level.js";

const baseText = readFileSync(join(resolve(import.meta.dirname, ".."), "generated", "openapi.json"), "utf8");

/** The changes at each level, as contract:check finds them, after `given` mutated a copy of the committed document. */
async function levels(given: (doc: Json) => void) {
  const doc = JSON.parse(baseText) as Json;
  given(doc);
  const interfaceText = (text: string) => JSON.stringify(interfaceLevel(JSON.parse(text)));
  const full = classifyChanges(await dereference(baseText), await dereference(JSON.stringify(doc)));
  const atInterface = classifyChanges(
    await dereference(interfaceText(baseText)),
    await dereference(interfaceText(JSON.stringify(doc))),
  );
  const listed = (changes: typeof full) => changes.map((change) => `${change.rule} ${change.location}`);
  return { full: listed(full), interfaceOnly: listed(onlyAtInterfaceLevel(full, atInterface)) };
}

const schemas = (doc: Json) => doc.components.schemas as Json;

describe("onlyAtInterfaceLevel", () => {
  it.each([
    {
      given: "a required field added to the create body (found at both levels)",
      change: (doc: Json) => schemas(doc).DeploymentCreate.required.push("secret_references"),
      want: { full: ["request-became-required createDeployment request body.secret_references"], interfaceOnly: [] },
    },
    {
      given:
        "a decision's mark removed from a bound (the interface level gains the bound; the full level sees no change)",
      change: (doc: Json) => delete schemas(doc).OAuthProviderCreate.properties.provider_id["x-decision"],
      want: {
        full: [],
        // Its minLength and its maxLength: two constraints.
        interfaceOnly: [
          "request-constraint-tightened createOAuthProvider request body.provider_id",
          "request-constraint-tightened createOAuthProvider request body.provider_id",
        ],
      },
    },
  ])("$given", async ({ change, want }) => {
    const found = await levels(change);
    expect({ full: found.full.filter((line) => !line.startsWith("info")), interfaceOnly: found.interfaceOnly }).toEqual(
      want,
    );
  });
});
