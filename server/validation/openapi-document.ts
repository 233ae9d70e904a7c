/** The generated OpenAPI 3.1 document (generated/openapi.json), the only source of every schema the server checks. */
import fs from "node:fs";
import { fileURLToPath } from "node:url";

/** The parts of an OpenAPI document the server reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, OpenApiParameter> };
}

export interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  explode?: boolean;
  schema: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: Array<OpenApiParameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

/** One operation with its method and path, as listed by the document. */
export interface OperationEntry {
  operationId: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

const documentUrl = new URL("../../generated/openapi.json", import.meta.url);

/** Reads generated/openapi.json once. */
export function loadOpenApiDocument(): OpenApiDocument {
  return JSON.parse(fs.readFileSync(fileURLToPath(documentUrl), "utf8")) as OpenApiDocument;
}

const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the document. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (httpMethods.includes(method)) entries.push({ operationId: operation.operationId, method, path, operation });
    }
  }
  return entries;
}

/** The parameters of an operation with `$ref`s to components.parameters resolved. */
export function resolveParameters(document: OpenApiDocument, operation: OpenApiOperation): OpenApiParameter[] {
  return (operation.parameters ?? []).map((parameter) => {
    if (!("$ref" in parameter)) return parameter;
    const name = parameter.$ref.replace("#/components/parameters/", "");
    const resolved = document.components.parameters?.[name];
    if (!resolved) throw new Error(`unresolved parameter ${parameter.$ref}`);
    return resolved;
  });
}
