/** Reading the generated OpenAPI 3.0 document: the operations and their parameters (contract issue). */

/** The parts of an OpenAPI 3.0 document this project reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: {
    schemas?: Record<string, unknown>;
    parameters?: Record<string, OpenApiParameter>;
  };
}

/** An operation object. */
export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Array<OpenApiParameter | { $ref: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }> }>;
}

/** A parameter object. */
export interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  explode?: boolean;
  schema: Record<string, unknown>;
}

/** An operation with its method and path. */
export interface OperationEntry {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  successStatus: number;
  operation: OpenApiOperation;
  parameters: OpenApiParameter[];
  queryArrays: Array<{ name: string; explode: boolean }>;
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Resolves a `#/components/parameters/X` reference. */
export function resolveParameter(document: OpenApiDocument, parameter: OpenApiParameter | { $ref: string }): OpenApiParameter {
  if (!("$ref" in parameter)) return parameter;
  const name = parameter.$ref.replace("#/components/parameters/", "");
  const resolved = document.components?.parameters?.[name];
  if (!resolved) throw new Error(`unresolved parameter ${parameter.$ref}`);
  return resolved;
}

/** Every operation of the document, in path order. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((parameter) => resolveParameter(document, parameter));
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      if (successes.length !== 1) throw new Error(`${operation.operationId} must have exactly one success status`);
      entries.push({
        operationId: operation.operationId,
        method,
        path,
        // The first paragraph of the description, on one line.
        summary: (operation.description ?? operation.operationId).split(/\n\s*\n/)[0]!.replace(/\s+/g, " ").trim(),
        successStatus: Number(successes[0]),
        operation,
        parameters,
        queryArrays: parameters
          .filter((parameter) => parameter.in === "query" && parameter.schema.type === "array")
          .map((parameter) => ({ name: parameter.name, explode: parameter.explode ?? true })),
      });
    }
  }
  return entries;
}
