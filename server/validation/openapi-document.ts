/** The generated OpenAPI 3.1 document (generated/openapi.json), the only source of every schema the server checks. */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument as ContractDocument, OpenApiParameter } from "../../scripts/openapi-document.js";

// One reader of the document serves the generator and the server: operations and resolved parameters.
export { listOperations, type OpenApiParameter } from "../../scripts/openapi-document.js";

/** The document as the server reads it: the generated file always has `components.schemas`. */
export interface OpenApiDocument extends ContractDocument {
  components: { schemas: Record<string, unknown>; parameters?: Record<string, OpenApiParameter> };
}

const documentUrl = new URL("../../generated/openapi.json", import.meta.url);

/** Reads generated/openapi.json once. */
export function loadOpenApiDocument(): OpenApiDocument {
  return JSON.parse(fs.readFileSync(fileURLToPath(documentUrl), "utf8")) as OpenApiDocument;
}
