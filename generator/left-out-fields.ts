/** The optional record fields that have neither a default nor null to be answered as when a create leaves them out (D-482): `npm run generate` names them. */

import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import { admitsNull } from "../contract/admits-null.js";

/** The records whose optional fields left out are answered as their default, else null (server/presenters/record-fields.ts). */
const records = ["Deployment", "OAuthProvider"];

/** `Schema.field` of each optional record field with neither a default nor null. */
export function fieldsLeftOutWhenNotSent(document: OpenAPIObject): string[] {
  return records.flatMap((name) => {
    const { properties = {}, required = [] } = (document.components?.schemas?.[name] ?? {}) as SchemaObject;
    return Object.entries(properties as Record<string, SchemaObject>)
      .filter(
        ([field, property]) => !required.includes(field) && property.default === undefined && !admitsNull(property),
      )
      .map(([field]) => `${name}.${field}`);
  });
}

/** The lines to print for those fields; "" when there are none. */
export function leftOutFieldAdvice(document: OpenAPIObject): string {
  return fieldsLeftOutWhenNotSent(document)
    .map((where) => {
      const field = where.split(".")[1];
      return `${where} is optional with neither a default nor null: a create that leaves it out is answered without it, while every other optional field is answered as its default or null (D-482). Write \`${field}?: <type> | null\` in spec/ to answer null like them.\n`;
    })
    .join("");
}
