/**
 * The per-source create bodies of generated/client.ts (D-201): one `DeploymentCreate` shape per source of the table
 * of contract/source-rules.ts, and the client's paths with the create-deployment body narrowed to their union.
 */
import type { OpenAPIObject, ReferenceObject, SchemaObject } from "openapi3-ts/oas31";
import { deploymentSources, type SourceField, type SourceRule, sourceFields } from "../contract/source-rules.js";

/** The schema the per-source types narrow; the wire schema itself stays as it is (D-47). */
const createSchema = "DeploymentCreate";

/**
 * The type of a field by its rule: required and set, optional, or absent. The wire also takes null for a forbidden
 * field (D-48), but openapi-fetch reads a property that can only be null as read-only and drops it from request
 * bodies, so the client's type says absent.
 */
function member(name: string, type: string, rule: SourceRule | "schema-required" | "schema-optional"): string {
  if (rule === "R") return `${name}: NonNullable<${type}>;`;
  if (rule === "F") return `${name}?: never;`;
  if (rule === "schema-required") return `${name}: ${type};`;
  return `${name}?: ${type};`;
}

/** The object schema a property names: itself, its `$ref`, or the one `$ref` of its `allOf` (how TypeSpec documents a reference). */
function objectSchema(document: OpenAPIObject, schema: SchemaObject | ReferenceObject): SchemaObject {
  const reference = "$ref" in schema ? schema : schema.allOf?.length === 1 ? schema.allOf[0] : undefined;
  const resolved =
    reference && "$ref" in reference && reference.$ref
      ? document.components?.schemas?.[reference.$ref.replace("#/components/schemas/", "")]
      : schema;
  if (!resolved || "$ref" in resolved || !resolved.properties)
    throw new Error(`not an object schema: ${JSON.stringify(schema)}`);
  return resolved;
}

/** `external_container` → `ExternalContainer`: a source, or a field, as part of a type name. */
function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

/**
 * The body type of one source, named (`CodehostDeploymentCreate`), with each group of source fields named too
 * (`CodehostSourceConfig`): a compile error then names the group at fault instead of printing its whole shape.
 */
function sourceBody(document: OpenAPIObject, source: string, rows: Map<string, SourceField>): string {
  const create = objectSchema(document, { $ref: `#/components/schemas/${createSchema}` });
  const groups: string[] = [];
  const lines: string[] = [];
  for (const [name, schema] of Object.entries(create.properties!)) {
    const type = `${createSchema}["${name}"]`;
    const topRow = rows.get(name);
    if (name === "source") lines.push(`source: "${source}";`);
    else if (topRow) lines.push(member(name, type, topRow.rules[source as never]));
    else if ([...rows.keys()].some((field) => field.startsWith(`${name}.`))) {
      const group = objectSchema(document, schema);
      const members = Object.keys(group.properties!).map((field) => {
        const row = rows.get(`${name}.${field}`);
        const fieldType = `NonNullable<${type}>["${field}"]`;
        if (row) return member(field, fieldType, row.rules[source as never]);
        return member(field, fieldType, group.required?.includes(field) ? "schema-required" : "schema-optional");
      });
      const groupName = `${pascal(source)}${pascal(name)}`;
      groups.push(
        `/** The \`${name}\` of a create body of source \`${source}\`. */\nexport interface ${groupName} {\n  ${members.join("\n  ")}\n}\n`,
      );
      lines.push(`${name}: ${groupName};`);
    } else lines.push(member(name, type, create.required?.includes(name) ? "schema-required" : "schema-optional"));
  }
  return `${groups.join("\n")}\n/** A create body of source \`${source}\`. */\nexport interface ${pascal(source)}DeploymentCreate {\n  ${lines.join("\n  ")}\n}\n`;
}

/** Every field the table names must be a field of the create schema: a renamed field fails generation, not a client. */
function checkFields(document: OpenAPIObject): void {
  const create = objectSchema(document, { $ref: `#/components/schemas/${createSchema}` });
  for (const { field } of sourceFields) {
    const [name, inner] = field.split(".") as [string, string | undefined];
    const schema = create.properties![name];
    const known = schema && (inner === undefined || objectSchema(document, schema).properties![inner] !== undefined);
    if (!known) throw new Error(`spec/source-rules.json names ${field}, which ${createSchema} does not have`);
  }
}

/** The operations whose JSON request body is the create schema, as [path, method]. */
function createOperations(document: OpenAPIObject): Array<[string, string]> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (["post", "put", "patch"] as const)
      .filter((method) => {
        const body = item[method]?.requestBody;
        const schema = body && !("$ref" in body) ? body.content["application/json"]?.schema : undefined;
        return schema !== undefined && "$ref" in schema && schema.$ref === `#/components/schemas/${createSchema}`;
      })
      .map((method): [string, string] => [path, method]),
  );
}

/** The client's paths: the contract's, with the body of each create operation narrowed to the per-source union. */
function clientPaths(document: OpenAPIObject): string {
  const narrowed = createOperations(document);
  if (narrowed.length === 0) throw new Error(`no operation takes ${createSchema}`);
  const keys = narrowed.map(([path]) => `"${path}"`).join(" | ");
  const entries = narrowed.map(
    ([path, method]) =>
      `  "${path}": Omit<paths["${path}"], "${method}"> & {\n` +
      `    ${method}: Omit<paths["${path}"]["${method}"], "requestBody"> & {\n` +
      `      requestBody: { content: { "application/json": DeploymentCreateFor } };\n    };\n  };`,
  );
  return `type ClientPaths = Omit<paths, ${keys}> & {\n${entries.join("\n")}\n};`;
}

/** The source of the per-source types and of the `ClientPaths` line the client runtime declares. */
export function sourceCreateTypes(document: OpenAPIObject): { types: string; clientPaths: string } {
  checkFields(document);
  const rows = new Map(sourceFields.map((row) => [row.field, row]));
  const bodies = deploymentSources.map((source) => sourceBody(document, source, rows)).join("\n");
  const bySource = deploymentSources.map((source) => `  ${source}: ${pascal(source)}DeploymentCreate;`).join("\n");
  const types = `${bodies}
/**
 * The create body of each source, from the per-source table (spec/source-rules.json, D-48; D-201): a field the source
 * requires must be set, a field it forbids must be absent. \`client.POST("/v2/deployments")\` takes
 * exactly their union. The wire schema (\`DeploymentCreate\`) and the server's 400 \`source-rule\` answers (D-47) stay as they are.
 */
export interface DeploymentCreateBySource {
${bySource}
}

/** A create body that follows the per-source table: for one source, or (by default) for any. */
export type DeploymentCreateFor<S extends DeploymentSource = DeploymentSource> = DeploymentCreateBySource[S];
`;
  return { types, clientPaths: clientPaths(document) };
}
