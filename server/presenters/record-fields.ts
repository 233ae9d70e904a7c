/**
 * The fields of a request body that the contract's record has (D-401): what a create keeps of its body, so a write-only
 * field (a client secret) is never part of an answer; and what an optional field left out is answered as (D-482).
 */
import { admitsNull } from "../../contract/admits-null.js";
import { document, type SchemaObject } from "../../contract/document.js";

type RecordSchema = "Deployment" | "OAuthProvider";

function schemaOf(schema: RecordSchema): SchemaObject {
  return (document.components?.schemas?.[schema] as SchemaObject | undefined) ?? {};
}

/**
 * What each optional property of a record schema is answered as when a create leaves it out: its default, else null when
 * it admits null (one rule for every optional field, a new one included, D-482). An optional field that is neither keeps
 * being left out; `npm run generate` names it.
 */
function leftOutValues(schema: RecordSchema): Record<string, unknown> {
  const { properties = {}, required = [] } = schemaOf(schema);
  return Object.fromEntries(
    Object.entries(properties as Record<string, SchemaObject>)
      .filter(([name]) => !required.includes(name))
      .flatMap(([name, property]) =>
        property.default !== undefined ? [[name, property.default]] : admitsNull(property) ? [[name, null]] : [],
      ),
  );
}

const names = {
  Deployment: new Set(Object.keys(schemaOf("Deployment").properties ?? {})),
  OAuthProvider: new Set(Object.keys(schemaOf("OAuthProvider").properties ?? {})),
};
const leftOut = { Deployment: leftOutValues("Deployment"), OAuthProvider: leftOutValues("OAuthProvider") };

/** `body` without its members that are not a property of the record schema (typed as the body: what is dropped is what the record lacks). */
export function recordFieldsOf<Body extends object>(schema: RecordSchema, body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([name]) => names[schema].has(name))) as Body;
}

/** `record` with each optional field it leaves out (or holds as undefined) answered as the contract says (D-482). */
export function withLeftOutFields<Fields extends object>(schema: RecordSchema, record: Fields): Fields {
  // The given fields keep their order; the ones left out follow.
  const given = Object.entries(record).filter(([, value]) => value !== undefined);
  const missing = Object.entries(leftOut[schema]).filter(([name]) => !given.some(([field]) => field === name));
  return Object.fromEntries([...given, ...missing]) as Fields;
}
