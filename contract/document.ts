/** The contract: generated/openapi.json (OpenAPI 3.1, compiled from spec/), read once and typed with openapi3-ts. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenAPIObject } from "openapi3-ts/oas31";

export type { OpenAPIObject, ParameterObject, SchemaObject } from "openapi3-ts/oas31";

/** Where the generated document lives; tools that hand it to another program (Prism, Redocly) read it from here. */
export const documentPath = fileURLToPath(new URL("../generated/openapi.json", import.meta.url));

/** The generated OpenAPI document. */
export const document = JSON.parse(readFileSync(documentPath, "utf8")) as OpenAPIObject;

/** A JSON Pointer (RFC 6901) made of the given segments, e.g. `pointer("paths", "/v2/deployments")`. */
export function pointer(...segments: string[]): string {
  return segments.map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
