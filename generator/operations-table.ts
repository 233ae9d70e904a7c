/** Builds generated/operations.json, the contract's operations table, from the OpenAPI document; `$ref`s are dereferenced by @redocly/openapi-core. */
import { bundle, createConfig } from "@redocly/openapi-core";
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from "openapi3-ts/oas31";
import { pointer } from "../contract/document.js";
import type { ContractBody, ContractOperation, OperationId, OperationsTable } from "../contract/operations.js";

const methods = ["get", "post", "put", "patch", "delete"] as const;

/** The operations table of the document stored at `documentFile`. */
export async function buildOperationsTable(documentFile: string): Promise<OperationsTable> {
  const config = await createConfig({});
  const { bundle: bundled, problems } = await bundle({ ref: documentFile, config, dereference: true });
  if (problems.length > 0)
    throw new Error(`dereferencing ${documentFile}: ${problems.map((p) => p.message).join("; ")}`);
  const document = bundled.parsed as OpenAPIObject;
  const table: Partial<OperationsTable> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      const id = operation.operationId as OperationId | undefined;
      if (!id) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      table[id] = describeOperation(id, method, path, operation);
    }
  }
  return table as OperationsTable;
}

function describeOperation(
  id: OperationId,
  method: ContractOperation["method"],
  path: string,
  operation: OperationObject,
): ContractOperation {
  const at = (...rest: string[]) => pointer("paths", path, method, ...rest);
  const statuses = Object.keys(operation.responses ?? {})
    .map(Number)
    .sort((a, b) => a - b);
  const successes = statuses.filter((status) => status >= 200 && status < 300);
  if (successes.length !== 1)
    throw new Error(`${id} must document exactly one success status, not ${successes.join(", ")}`);
  const responses: Record<string, ContractBody> = {};
  for (const status of statuses) {
    const body = firstBody(operation.responses?.[String(status)]?.content, at("responses", String(status)));
    if (body) responses[String(status)] = body;
  }
  const requestBody =
    operation.requestBody && "content" in operation.requestBody
      ? firstBody(operation.requestBody.content, at("requestBody"))
      : undefined;
  return {
    id,
    method,
    path,
    // The first paragraph of the description, on one line.
    summary: (operation.description ?? operation.summary ?? id)
      .split(/\n\s*\n/)[0]!
      .replace(/\s+/g, " ")
      .trim(),
    successStatus: successes[0]!,
    statuses,
    parameters: ((operation.parameters ?? []) as ParameterObject[]).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required ?? false,
      // OpenAPI's default for query parameters of style form is explode: true.
      explode: parameter.explode ?? true,
      schema: (parameter.schema ?? {}) as SchemaObject,
    })),
    ...(requestBody
      ? {
          requestBody: {
            ...requestBody,
            required: (operation.requestBody as { required?: boolean }).required ?? false,
          },
        }
      : {}),
    responses,
  };
}

function firstBody(content: Record<string, { schema?: unknown }> | undefined, at: string): ContractBody | undefined {
  const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
  if (!mediaType || !media?.schema) return undefined;
  return {
    mediaType,
    pointer: `${at}${pointer("content", mediaType, "schema")}`,
    schema: media.schema as SchemaObject,
  };
}
