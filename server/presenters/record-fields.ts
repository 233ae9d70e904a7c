/** The fields of a request body that the contract's record has (D-401): what a create keeps of its body, so a write-only field (a client secret) is never part of an answer. */
import { document, type SchemaObject } from "../../contract/document.js";

/** The property names of a record schema of the contract. */
function propertyNames(schema: "Deployment" | "OAuthProvider"): Set<string> {
  return new Set(Object.keys((document.components?.schemas?.[schema] as SchemaObject | undefined)?.properties ?? {}));
}

const names = { Deployment: propertyNames("Deployment"), OAuthProvider: propertyNames("OAuthProvider") };

/** `body` without its members that are not a property of the record schema (typed as the body: what is dropped is what the record lacks). */
export function recordFieldsOf<Body extends object>(schema: keyof typeof names, body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([name]) => names[schema].has(name))) as Body;
}
