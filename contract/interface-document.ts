/** The interface level of the contract (D-220): generated/openapi.interface.json, what the interface spec alone states, read on first use. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenAPIObject } from "openapi3-ts/oas31";

/** Where `npm run generate` writes the interface level, beside generated/openapi.json. */
export const interfaceDocumentPath = fileURLToPath(new URL("../generated/openapi.interface.json", import.meta.url));

let loaded: OpenAPIObject | undefined;

/** The interface level: the full contract's paths and schemas without the constraints a decision adds. */
export function interfaceDocument(): OpenAPIObject {
  loaded ??= JSON.parse(readFileSync(interfaceDocumentPath, "utf8")) as OpenAPIObject;
  return loaded;
}
