/**
 * Walks every table of the interface spec (as spec/interface-tables.json holds them) and checks each row against
 * the OpenAPI document: wire name, type, nullability, default, required-ness, read-only, the
 * request/response split, the query parameters, states and endpoints. Deliberate refinements are
 * the explicit exceptions below, each citing its row of spec/decisions.md.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import type { OperationId } from "../contract/operations.js";
import type { MarkdownSection, MarkdownTable } from "./markdown-tables.js";
import { codeSpans, sectionByHeading } from "./markdown-tables.js";

/** One row of the interface spec that the OpenAPI document does not match. */
interface Finding {
  table: string;
  where: string;
  problem: string;
}

/** What was checked: the findings and how many rows of each table were walked. */
interface CheckResult {
  findings: Finding[];
  rowsChecked: Record<string, number>;
  rowsInSpec: Record<string, number>;
  /** The `where` of each field beyond a table's rows that has no exception yet: each needs `fieldExceptionEntry(where)`. */
  fieldsWithoutException: string[];
}

/** The type a row of the interface spec states, in a form comparable with a JSON Schema. */
type Expected =
  | { kind: "string"; format?: string }
  | { kind: "integer" | "number" | "boolean" | "object" }
  | { kind: "enum"; values: string[] }
  | { kind: "ref"; name: string }
  | { kind: "array"; items: Expected }
  | { kind: "fields"; fields: Record<string, Expected> };

/** Which schema each field table describes, and on which side of the wire. */
interface TableTarget {
  heading: string;
  schema: string;
  side: "request" | "response";
  /** Rows of the table that are not part of this schema (the request variant of a response table). */
  omitRow?: (row: Record<string, string>) => boolean;
}

export const tableTargets: TableTarget[] = [
  { heading: "OAuth provider: creation request body", schema: "OAuthProviderCreate", side: "request" },
  { heading: "OAuth provider: response record", schema: "OAuthProvider", side: "response" },
  { heading: "Code-host repository record", schema: "CodehostRepository", side: "response" },
  { heading: "Deployment (response record)", schema: "Deployment", side: "response" },
  { heading: "Secret", schema: "Secret", side: "request" },
  { heading: "SecretReference", schema: "SecretReference", side: "request" },
  { heading: "SourceConfig", schema: "SourceConfig", side: "request" },
  { heading: "SourceRevisionConfig", schema: "SourceRevisionConfig", side: "response" },
  {
    heading: "SourceRevisionConfig",
    schema: "SourceRevisionConfigCreate",
    side: "request",
    omitRow: (row) => /responses only|absent from the creation request/i.test(row.Notes ?? ""),
  },
  { heading: "Paginated deployment list", schema: "DeploymentList", side: "response" },
  { heading: "6. Create a deployment", schema: "DeploymentCreate", side: "request" },
];

/** A request table naming a response schema means its request variant (D-67). */
const requestVariant: Record<string, string> = { SourceRevisionConfig: "SourceRevisionConfigCreate" };

/**
 * Required-ness of schemas whose table has no Required column. These are decisions, not
 * statements of the interface spec.
 */
const requiredByDecision: Record<string, { required: string[]; decision: string }> = {
  Secret: { required: ["name", "value"], decision: "D-69" },
  SecretReference: { required: ["name", "secret_name", "secret_key"], decision: "D-69" },
  SourceConfig: { required: [], decision: "D-68" },
  SourceRevisionConfig: { required: [], decision: "D-68" },
  SourceRevisionConfigCreate: { required: [], decision: "D-68" },
  ListenerConfig: { required: [], decision: "D-69" },
  ResourceSpec: { required: [], decision: "D-65" },
  ImagePullSecret: { required: [], decision: "D-69" },
  Volume: { required: [], decision: "D-69" },
  VolumeMount: { required: [], decision: "D-69" },
  ContainerResources: { required: [], decision: "D-69" },
  Container: { required: ["name", "image"], decision: "D-65" },
  EnvVar: { required: ["name"], decision: "D-65" },
};

/**
 * Where the model deliberately refines what a row states. `where` is `Schema.field`, `query.name` or `Schema.*`.
 * Aspect `field`: a field the profile adds beyond the table's rows (`model: true`).
 */
interface Exception {
  where: string;
  aspect: "type" | "nullable" | "field";
  /** The model's type (aspect type) or nullability (aspect nullable) instead of the stated one; true for a field. */
  model: Expected | boolean;
  decision: string;
  why: string;
}

const stateValues = ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"];

export const exceptions: Exception[] = [
  // The spec writes the vendors as placeholders; the profile names them.
  {
    where: "OAuthProviderCreate.provider_type",
    aspect: "type",
    model: { kind: "enum", values: ["microsoft", "salesforce", "slack"] },
    decision: "D-57",
    why: "vendor placeholders are microsoft, salesforce, slack",
  },
  // A free string would accept PKCE methods no authorization server implements.
  {
    where: "OAuthProviderCreate.code_challenge_method",
    aspect: "type",
    model: { kind: "enum", values: ["S256", "plain"] },
    decision: "D-02",
    why: "RFC 7636 defines S256 and plain",
  },
  // URL fields are checked as absolute URLs.
  {
    where: "OAuthProviderCreate.auth_url",
    aspect: "type",
    model: { kind: "string", format: "uri" },
    decision: "D-73",
    why: "absolute URL, format uri",
  },
  {
    where: "OAuthProviderCreate.token_url",
    aspect: "type",
    model: { kind: "string", format: "uri" },
    decision: "D-73",
    why: "absolute URL, format uri",
  },
  // Comma-separated lists are arrays serialized with explode: false; `status` lists the states.
  {
    where: "query.status",
    aspect: "type",
    model: { kind: "array", items: { kind: "enum", values: stateValues } },
    decision: "D-07",
    why: "comma-separated list of status values",
  },
  {
    where: "query.tag_value_ids",
    aspect: "type",
    model: { kind: "array", items: { kind: "string", format: "uuid" } },
    decision: "D-64",
    why: "comma-separated uuids as an explode:false array",
  },
  {
    where: "query.deployment_ids",
    aspect: "type",
    model: { kind: "array", items: { kind: "string", format: "uuid" } },
    decision: "D-64",
    why: "comma-separated uuids as an explode:false array",
  },
  // A URL cannot carry null: nullable query parameters are optional and non-null.
  ...[
    "name_contains",
    "status",
    "remote_reconciled",
    "tag_value_ids",
    "image_version",
    "deployment_type",
    "deployment_ids",
  ].map(
    (name): Exception => ({
      where: `query.${name}`,
      aspect: "nullable",
      model: false,
      decision: "D-63",
      why: "absent means no filter",
    }),
  ),
  // Every ResourceSpec field is optional and nullable; null means the same as absent.
  { where: "ResourceSpec.*", aspect: "nullable", model: true, decision: "D-65", why: "null means the same as absent" },
];

/**
 * The `exceptions` entry a field beyond the interface spec's tables needs, as biome formats it inside that array (one member
 * a line and a trailing comma: an object written over several lines stays so, whatever its length), ready to paste.
 */
export function fieldExceptionEntry(where: string): string {
  return [
    "  {",
    `    where: ${JSON.stringify(where)},`,
    `    aspect: "field",`,
    "    model: true,",
    `    decision: "D-NN",`,
    `    why: "what the field is for, beyond the interface spec",`,
    "  },",
  ].join("\n");
}

/** The path operation 4 has in this profile (the spec leaves method and path open). */
const operation4 = { method: "get", path: "/v1/integrations/forge/codehost/{integration_id}/repos", decision: "D-10" };

/** What an operation takes and answers: the schemas named by its section, and its success status (D-06). */
interface OperationShape {
  /** The number of the operation's section and Endpoints row in the interface spec. */
  section: string;
  request?: string;
  response: Expected;
  success: number;
  errors: number[];
}

/** Every operation of the contract, keyed by operationId: a new operation fails to compile until it has its shape (D-210). */
const operationShapes = {
  createOAuthProvider: {
    section: "1",
    request: "OAuthProviderCreate",
    response: { kind: "ref", name: "OAuthProvider" },
    success: 200,
    errors: [400, 401, 403, 409, 413, 415, 422, 500, 503],
  },
  listOAuthProviders: {
    section: "2",
    response: { kind: "array", items: { kind: "ref", name: "OAuthProvider" } },
    success: 200,
    errors: [401, 403, 422, 500, 503],
  },
  listCodehostRepositories: {
    section: "3",
    response: { kind: "array", items: { kind: "ref", name: "CodehostRepository" } },
    success: 200,
    errors: [401, 403, 404, 422, 500, 503],
  },
  listManagedCodehostRepositories: {
    section: "4",
    response: { kind: "array", items: { kind: "ref", name: "CodehostRepository" } },
    success: 200,
    errors: [401, 403, 404, 422, 500, 503],
  },
  listDeployments: {
    section: "5",
    response: { kind: "ref", name: "DeploymentList" },
    success: 200,
    errors: [401, 403, 422, 429, 500, 503],
  },
  createDeployment: {
    section: "6",
    request: "DeploymentCreate",
    response: { kind: "ref", name: "Deployment" },
    success: 201,
    errors: [400, 401, 403, 409, 413, 415, 422, 500, 503],
  },
} satisfies Record<OperationId, OperationShape>;

// biome-ignore lint/suspicious/noExplicitAny: the checks read schemas and parameters of any shape, keyword by keyword
type Json = Record<string, any>;

/** Checks the OpenAPI document against every table of the interface spec: one checker per table, then the unused exceptions. */
export function checkInterfaceSpec(sections: MarkdownSection[], document: OpenAPIObject): CheckResult {
  const walk = new SpecWalk(sections, document);
  for (const target of tableTargets) checkFieldTable(walk, target);
  checkResourceSpec(walk);
  checkStates(walk);
  checkListQuery(walk);
  checkLimits(walk);
  checkEndpoints(walk);
  checkExceptionsUsed(walk);
  return walk.result;
}

/** What every checker shares: the document, the spec's states and named shapes, and the findings so far. */
class SpecWalk {
  readonly result: CheckResult = { findings: [], rowsChecked: {}, rowsInSpec: {}, fieldsWithoutException: [] };
  readonly schemas: Record<string, Json>;
  readonly states: string[];
  readonly named: Map<string, Expected>;
  readonly nullableSchemas: Set<string>;
  readonly usedExceptions = new Set<Exception>();

  constructor(
    readonly sections: MarkdownSection[],
    readonly document: OpenAPIObject,
  ) {
    this.schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
    this.states = statesFromSpec(sections);
    this.named = namedShapes(sections);
    this.nullableSchemas = nullableStatement(sections);
  }

  report(table: string, where: string, problem: string): void {
    this.result.findings.push({ table, where, problem });
  }

  /** The only table of a section, its rows counted as in the spec and as checked. */
  table(heading: string, label: string): { section: MarkdownSection; table: MarkdownTable } {
    const section = sectionByHeading(this.sections, heading);
    const table = onlyTable(section);
    this.counted(label, table.rows.length);
    return { section, table };
  }

  /** Records how many rows a table has and that all of them were walked. */
  counted(label: string, rows: number): void {
    this.result.rowsInSpec[label] = rows;
    this.result.rowsChecked[label] = (this.result.rowsChecked[label] ?? 0) + rows;
  }

  exceptionFor(where: string, aspect: Exception["aspect"]): Exception | undefined {
    const schemaWide = `${where.split(".")[0]}.*`;
    const found = exceptions.find((e) => e.aspect === aspect && (e.where === where || e.where === schemaWide));
    if (found) this.usedExceptions.add(found);
    return found;
  }

  /** Compares a stated type with a schema; returns what differs, or undefined. */
  compare(want: Expected, actual: Json | undefined, side: "request" | "response"): string | undefined {
    if (!actual) return "is missing";
    const { core } = unwrap(actual);
    const resolved = deref(this.schemas, core);
    switch (want.kind) {
      case "string":
        if (resolved.type !== "string" || resolved.enum) return `is ${describe(resolved)}, want string`;
        if (resolved.format !== want.format)
          return `has format ${resolved.format ?? "none"}, want ${want.format ?? "none"}`;
        return undefined;
      case "integer":
      case "number":
      case "boolean":
        return resolved.type === want.kind && !resolved.enum
          ? undefined
          : `is ${describe(resolved)}, want ${want.kind}`;
      case "object":
        return resolved.type === "object" && !resolved.properties
          ? undefined
          : `is ${describe(resolved)}, want a free-form object`;
      case "enum": {
        const values = resolved.enum as unknown[] | undefined;
        if (!values) return `is ${describe(resolved)}, want enum ${want.values.join("|")}`;
        const same = values.length === want.values.length && want.values.every((value) => values.includes(value));
        return same ? undefined : `is enum ${values.join("|")}, want ${want.values.join("|")}`;
      }
      case "ref": {
        const name = side === "request" ? (requestVariant[want.name] ?? want.name) : want.name;
        const got = refName(core);
        return got === name ? undefined : `refers to ${got ?? describe(resolved)}, want ${name}`;
      }
      case "array": {
        if (resolved.type !== "array") return `is ${describe(resolved)}, want an array`;
        const inner = this.compare(want.items, resolved.items as Json, side);
        return inner ? `items ${inner}` : undefined;
      }
      case "fields":
        return this.compareFields(want.fields, core, resolved, side);
    }
  }

  /** An object with exactly these fields, none nullable, each of its type, and its required fields decided. */
  private compareFields(
    fields: Record<string, Expected>,
    core: Json,
    resolved: Json,
    side: "request" | "response",
  ): string | undefined {
    if (resolved.type !== "object" || !resolved.properties)
      return `is ${describe(resolved)}, want an object with ${Object.keys(fields).join(", ")}`;
    const problems = compareFieldSets(Object.keys(fields), Object.keys(resolved.properties as Json));
    for (const [field, type] of Object.entries(fields)) {
      const property = (resolved.properties as Json)[field] as Json | undefined;
      if (!property) continue;
      if (unwrap(property).nullable) problems.push(`${field} is nullable, want non-null`);
      const inner = this.compare(type, property, side);
      if (inner) problems.push(`${field} ${inner}`);
    }
    const component = refName(core);
    if (component) {
      const decided = requiredByDecision[component];
      if (!decided) problems.push(`no decision on the required fields of ${component}`);
      else if (!sameSet(decided.required, (resolved.required as string[]) ?? [])) {
        problems.push(
          `${component} requires ${JSON.stringify(resolved.required ?? [])}, ${decided.decision} says ${JSON.stringify(decided.required)}`,
        );
      }
    }
    return problems.length > 0 ? problems.join("; ") : undefined;
  }

  /** The stated type of a row, or the model's type where an exception says so (and the exception must still be needed). */
  wantedType(
    table: string,
    where: string,
    stated: Expected,
    actual: Json | undefined,
    side: "request" | "response",
  ): Expected {
    const exception = this.exceptionFor(where, "type");
    if (!exception) return stated;
    if (!this.compare(stated, actual, side))
      this.report(table, where, `exception ${exception.decision} is no longer needed: the model matches the spec`);
    return exception.model as Expected;
  }

  /** The row's type (or its exception's) against the schema. */
  checkType(table: string, where: string, stated: Expected, actual: Json, side: "request" | "response"): Expected {
    const type = this.wantedType(table, where, stated, actual, side);
    const problem = this.compare(type, actual, side);
    if (problem) this.report(table, where, problem);
    return type;
  }

  checkNullable(table: string, where: string, stated: boolean, actual: boolean): void {
    const exception = this.exceptionFor(where, "nullable");
    const want = exception ? (exception.model as boolean) : stated;
    if (exception && stated === actual)
      this.report(table, where, `exception ${exception.decision} is no longer needed: the model matches the spec`);
    if (want !== actual)
      this.report(table, where, actual ? "is nullable, want non-null" : "is not nullable, want T | null");
  }

  checkRequired(
    table: string,
    where: string,
    spec: MarkdownTable,
    row: Record<string, string>,
    schema: Json,
    field: string,
  ): void {
    const required = ((schema.required as string[]) ?? []).includes(field);
    if (spec.header.includes("Required")) {
      const want = /^yes/i.test(row.Required ?? "");
      if (want !== required)
        this.report(table, where, want ? "is optional, want required" : "is required, want optional");
      return;
    }
    const name = where.split(".")[0]!;
    const decided = requiredByDecision[name];
    if (!decided) this.report(table, where, `no decision on the required fields of ${name}`);
    else if (decided.required.includes(field) !== required)
      this.report(table, where, `required is ${required}, ${decided.decision} says ${!required}`);
  }

  checkDefault(table: string, where: string, cell: string, actual: unknown): void {
    const want = parseDefault(cell);
    if (JSON.stringify(want) !== JSON.stringify(actual))
      this.report(table, where, `default is ${JSON.stringify(actual)}, want ${JSON.stringify(want)}`);
  }

  checkBounds(table: string, where: string, parameter: Parameter, bounds: Record<string, number>): void {
    for (const [key, value] of Object.entries(bounds)) {
      if (parameter.schema[key] !== value)
        this.report(table, where, `${key} is ${String(parameter.schema[key])}, want ${value}`);
    }
  }

  /** The query parameters of listDeployments (operation 5), by name. */
  listQueryParameters(): Map<string, Parameter> {
    const listDeployments = this.document.paths?.["/v2/deployments"]?.get;
    return new Map<string, Parameter>(
      (listDeployments?.parameters ?? [])
        .map((parameter) => resolveParameter(this.document, parameter as Json))
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => [parameter.name, parameter]),
    );
  }
}

/** A field table: every row against its schema, and no field beyond the rows. */
function checkFieldTable(walk: SpecWalk, target: TableTarget): void {
  const label = `${target.heading} → ${target.schema}`;
  const { table } = walk.table(target.heading, label);
  const schema = walk.schemas[target.schema];
  if (!schema) {
    walk.report(label, target.schema, "schema is missing");
    return;
  }
  const rows = table.rows.filter((row) => !target.omitRow?.(row));
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  for (const problem of compareFieldSets(
    rows.map((row) => row.Field!),
    Object.keys(properties),
    { walk, schema: target.schema, table: target.heading },
  ))
    walk.report(label, target.schema, problem);
  const allNullable = walk.nullableSchemas.has(target.schema) || walk.nullableSchemas.has(requestBase(target.schema));
  for (const row of rows) {
    const field = row.Field!;
    const where = `${target.schema}.${field}`;
    const property = properties[field];
    if (!property) continue; // reported by the field-set comparison
    const stated = parseStatedType(row.Type!, enumValuesOf(row, walk.states));
    walk.checkType(label, where, stated.type, property, target.side);
    walk.checkNullable(label, where, stated.nullable || allNullable, unwrap(property).nullable);
    walk.checkRequired(label, where, table, row, schema, field);
    if (table.header.includes("Default")) walk.checkDefault(label, where, row.Default ?? "", property.default);
    const readOnly = /read-only/i.test(row.Notes ?? "");
    if (readOnly !== (property.readOnly === true))
      walk.report(
        label,
        where,
        readOnly ? "is not marked readOnly" : "is marked readOnly but the spec does not say so",
      );
  }
}

/** ResourceSpec: every group's fields, the array-valued rows, and the container object. */
function checkResourceSpec(walk: SpecWalk): void {
  const label = "ResourceSpec → ResourceSpec";
  const { table } = walk.table("ResourceSpec", label);
  const schema = walk.schemas.ResourceSpec;
  if (!schema) {
    walk.report(label, "ResourceSpec", "schema is missing");
    return;
  }
  const fields = resourceSpecFields(table, walk.named);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  for (const problem of compareFieldSets(Object.keys(fields), Object.keys(properties), {
    walk,
    schema: "ResourceSpec",
    table: "ResourceSpec",
  }))
    walk.report(label, "ResourceSpec", problem);
  for (const [field, type] of Object.entries(fields)) {
    const where = `ResourceSpec.${field}`;
    const property = properties[field];
    if (!property) continue;
    const problem = walk.compare(type, property, "request");
    if (problem) walk.report(label, where, problem);
    walk.checkNullable(label, where, false, unwrap(property).nullable);
    if (((schema.required as string[]) ?? []).includes(field))
      walk.report(label, where, "is required, D-65 says optional");
    const { core } = unwrap(property);
    if ((type.kind === "integer" || type.kind === "number") && core.minimum !== 0 && property.minimum !== 0)
      walk.report(label, where, "has no minimum 0 (D-65)");
  }
}

/** States: the status enum holds exactly the states of the table. */
function checkStates(walk: SpecWalk): void {
  const label = "States and transitions → DeploymentStatus";
  walk.counted(label, walk.states.length);
  const problem = walk.compare(
    { kind: "enum", values: walk.states },
    { $ref: "#/components/schemas/DeploymentStatus" },
    "response",
  );
  if (problem) walk.report(label, "DeploymentStatus", problem);
}

/** The query parameters of operation 5: every row a parameter of its type, default and range, and no other. */
function checkListQuery(walk: SpecWalk): void {
  const label = "List deployments query parameters";
  const { section, table } = walk.table("5. List deployments", label);
  const queryParameters = walk.listQueryParameters();
  const allOptional = /\(all optional\)/i.test(section.text);
  for (const problem of compareFieldSets(
    table.rows.map((row) => row.Parameter!),
    [...queryParameters.keys()],
  ))
    walk.report(label, "listDeployments", problem);
  for (const row of table.rows) {
    const name = row.Parameter!;
    const where = `query.${name}`;
    const parameter = queryParameters.get(name);
    if (!parameter) continue;
    if (allOptional && parameter.required) walk.report(label, where, "is required, want optional");
    const stated = parseStatedType(row.Type!, codeSpans(row.Rule ?? ""));
    const type = walk.checkType(label, where, stated.type, parameter.schema, "request");
    if (type.kind === "array" && parameter.explode !== false)
      walk.report(label, where, "is a list but not explode: false (D-64)");
    walk.checkNullable(label, where, stated.nullable, unwrap(parameter.schema).nullable);
    walk.checkDefault(label, where, row.Default ?? "", parameter.schema.default);
    const range = /range (\d+) to (\d+)/i.exec(row.Rule ?? "");
    const atLeast = /at least (\d+)/i.exec(row.Rule ?? "");
    if (range) walk.checkBounds(label, where, parameter, { minimum: Number(range[1]), maximum: Number(range[2]) });
    if (atLeast) walk.checkBounds(label, where, parameter, { minimum: Number(atLeast[1]) });
  }
}

/** The Limits table: each limit is the default, minimum or maximum of its list parameter. */
function checkLimits(walk: SpecWalk): void {
  const label = "Limits";
  const { table } = walk.table("Limits", label);
  const queryParameters = walk.listQueryParameters();
  for (const row of table.rows) {
    const name = row.Limit!.split(/\s+/)[0]!;
    const where = `query.${name}`;
    const parameter = queryParameters.get(name);
    if (!parameter) {
      walk.report(label, where, "is missing");
      continue;
    }
    const bounds: Record<string, number> = {};
    for (const match of row.Value!.matchAll(/(default|minimum|maximum) (\d+)/g)) bounds[match[1]!] = Number(match[2]);
    if (Object.keys(bounds).length === 0) walk.report(label, where, `cannot read the limit "${row.Value}"`);
    if ("default" in bounds) walk.checkDefault(label, where, String(bounds.default), parameter.schema.default);
    delete bounds.default;
    walk.checkBounds(label, where, parameter, bounds);
  }
}

/** Endpoints: every row is an operation at its method and path with its shape, and there is no other operation. */
function checkEndpoints(walk: SpecWalk): void {
  const label = "Endpoints";
  const { table } = walk.table("Endpoints", label);
  const wanted = new Set<string>();
  for (const row of table.rows) {
    const number = row["#"]!;
    const unspecified = /unspecified/i.test(row.Method!) || /unspecified/i.test(row.Path!);
    const method = unspecified ? operation4.method : row.Method!.toLowerCase();
    const path = unspecified ? operation4.path : row.Path!.replace("{base_url}", "");
    const where = `${number}. ${method.toUpperCase()} ${path}`;
    wanted.add(`${method} ${path}`);
    const operation = walk.document.paths?.[path]?.[method as "get"] as Json | undefined;
    if (!operation) {
      walk.report(label, where, "operation is missing");
      continue;
    }
    const shape = Object.entries(operationShapes).find(([, candidate]) => candidate.section === number);
    if (!shape) {
      walk.report(label, where, "no request/response shape for this operation in the test");
      continue;
    }
    if (operation.operationId !== shape[0])
      walk.report(label, where, `operationId is ${operation.operationId}, want ${shape[0]}`);
    const section = walk.sections.find((candidate) => candidate.heading.startsWith(`${number}. `));
    const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) =>
      resolveParameter(walk.document, parameter),
    );
    checkEndpointParameters(walk, where, section?.text ?? "", operation, parameters);
    checkEndpointSecurity(walk, where, operation, parameters);
    checkEndpointAnswers(walk, where, operation, shape[1]);
  }
  for (const [path, item] of Object.entries(walk.document.paths ?? {})) {
    for (const method of Object.keys(item)) {
      if (!wanted.has(`${method} ${path}`))
        walk.report(label, `${method.toUpperCase()} ${path}`, "operation is not in the interface spec");
    }
  }
}

/** What the operation's section says of its query, path parameters and body. */
function checkEndpointParameters(
  walk: SpecWalk,
  where: string,
  text: string,
  operation: Json,
  parameters: Parameter[],
): void {
  const label = "Endpoints";
  if (/no query parameters/i.test(text) && parameters.some((parameter) => parameter.in === "query"))
    walk.report(label, where, "has query parameters, the spec says none");
  if (/no body/i.test(text) && operation.requestBody)
    walk.report(label, where, "has a request body, the spec says none");
  if (/no path parameters/i.test(text) && parameters.some((parameter) => parameter.in === "path"))
    walk.report(label, where, "has path parameters, the spec says none");
  for (const match of text.matchAll(/path parameter `(\w+)` \((\w[\w-]*), required\)/gi)) {
    const parameter = parameters.find((candidate) => candidate.in === "path" && candidate.name === match[1]);
    if (!parameter?.required) walk.report(label, where, `path parameter ${match[1]} is missing or optional`);
    else {
      const problem = walk.compare(parseStatedType(match[2]!, []).type, parameter.schema, "request");
      if (problem) walk.report(label, where, `path parameter ${match[1]} ${problem}`);
    }
  }
  if (/one path parameter/i.test(text) && parameters.filter((parameter) => parameter.in === "path").length !== 1)
    walk.report(label, where, "want exactly one path parameter");
}

/**
 * Authentication is outside the operation shapes (the spec says so): the key travels as the security
 * scheme, and the only header parameter is the optional tenant selector.
 */
function checkEndpointSecurity(walk: SpecWalk, where: string, operation: Json, parameters: Parameter[]): void {
  const label = "Endpoints";
  const headers = parameters.filter((parameter) => parameter.in === "header");
  const tenant = headers.find((parameter) => parameter.name === "X-Tenant-Id");
  if (
    headers.length !== 1 ||
    !tenant ||
    tenant.required ||
    walk.compare({ kind: "string", format: "uuid" }, tenant.schema, "request")
  ) {
    walk.report(
      label,
      where,
      `header parameters ${JSON.stringify(headers.map((parameter) => parameter.name))}, D-14 says one optional uuid X-Tenant-Id`,
    );
  }
  const document = walk.document as Json;
  const security = (operation.security ?? document.security) as Array<Record<string, unknown>> | undefined;
  const scheme = document.components?.securitySchemes?.ApiKeyAuth as Json | undefined;
  if (
    !security?.some((requirement) => "ApiKeyAuth" in requirement) ||
    scheme?.type !== "apiKey" ||
    scheme.in !== "header" ||
    scheme.name !== "X-Api-Key"
  ) {
    walk.report(label, where, "is not secured by the X-Api-Key header scheme (D-13)");
  }
}

/** The request body, the one success status and its body, and the error statuses of the operation's shape. */
function checkEndpointAnswers(walk: SpecWalk, where: string, operation: Json, shape: OperationShape): void {
  const label = "Endpoints";
  const body = operation.requestBody?.content?.["application/json"]?.schema as Json | undefined;
  if (shape.request && refName(body ?? {}) !== shape.request)
    walk.report(label, where, `request body is ${body ? describe(body) : "missing"}, want ${shape.request}`);
  if (!shape.request && body) walk.report(label, where, "has a request body");
  const responses = operation.responses as Json;
  const successes = Object.keys(responses).filter((status) => status.startsWith("2"));
  if (successes.length !== 1 || Number(successes[0]) !== shape.success)
    walk.report(label, where, `success status is ${successes.join(",")}, D-06 says ${shape.success}`);
  const success = responses[String(shape.success)]?.content?.["application/json"]?.schema as Json | undefined;
  const problem = walk.compare(shape.response, success, "response");
  if (problem) walk.report(label, where, `response ${problem}`);
  const errors = Object.keys(responses)
    .filter((status) => /^[45]/.test(status))
    .map(Number);
  if (!sameSet(errors, shape.errors))
    walk.report(label, where, `error statuses ${errors.join(",")}, D-27 says ${shape.errors.join(",")}`);
}

/** Every exception must still match a row: one that matches none is stale. */
function checkExceptionsUsed(walk: SpecWalk): void {
  for (const exception of exceptions) {
    if (!walk.usedExceptions.has(exception))
      walk.result.findings.push({
        table: "exceptions",
        where: exception.where,
        problem: `exception ${exception.decision} matches no row`,
      });
  }
}

/** Schema name of the response table a request schema was derived from. */
function requestBase(schema: string): string {
  return Object.entries(requestVariant).find(([, variant]) => variant === schema)?.[0] ?? schema;
}

/** The schemas named in "All fields of X and Y are nullable". */
function nullableStatement(sections: MarkdownSection[]): Set<string> {
  const names = new Set<string>();
  for (const section of sections) {
    for (const match of section.text.matchAll(/All fields of ([\w ,]+?) are nullable/g)) {
      for (const name of match[1]!.split(/,|\band\b/)) if (name.trim()) names.add(name.trim());
    }
  }
  return names;
}

/** The states of the States table, in order. */
function statesFromSpec(sections: MarkdownSection[]): string[] {
  return onlyTable(sectionByHeading(sections, "States and transitions")).rows.map((row) => row.State!);
}

/** Enum values of a row: its backticked words, or the States table when it points there. */
function enumValuesOf(row: Record<string, string>, states: string[]): string[] {
  const notes = row.Notes ?? "";
  const values = codeSpans(notes);
  if (values.length === 0 && /States and transitions/.test(notes)) return states;
  return values;
}

/** Parses a Type cell: `string or null`, `Secret[]`, `SourceConfig object`, `enum`, `object with field ...`. */
export function parseStatedType(text: string, enumValues: string[]): { type: Expected; nullable: boolean } {
  const nullable = /\s+(?:or|\|)\s+null$/.exec(text.trim());
  const base = nullable ? text.trim().slice(0, nullable.index) : text.trim();
  if (base === "enum") {
    if (enumValues.length === 0) throw new Error(`enum without values: ${text}`);
    return { type: { kind: "enum", values: enumValues }, nullable: Boolean(nullable) };
  }
  return { type: parseTypePhrase(base, new Map()), nullable: Boolean(nullable) };
}

/** Parses a type phrase of the spec's prose (also the ResourceSpec and container descriptions). */
function parseTypePhrase(text: string, named: Map<string, Expected>): Expected {
  const phrase = text.trim();
  if (phrase === "string") return { kind: "string" };
  if (phrase === "uuid") return { kind: "string", format: "uuid" };
  if (phrase === "date-time") return { kind: "string", format: "date-time" };
  if (phrase === "integer" || phrase === "number" || phrase === "boolean" || phrase === "object")
    return { kind: phrase };
  if (phrase.endsWith("[]")) return { kind: "array", items: parseTypePhrase(phrase.slice(0, -2), named) };
  const objectRef = /^([A-Z]\w*)(?: object)?$/.exec(phrase);
  if (objectRef) return { kind: "ref", name: objectRef[1]! };
  const arrayOfObjects = /^arrays? of objects with (.*)$/.exec(phrase);
  if (arrayOfObjects)
    return { kind: "array", items: { kind: "fields", fields: parseFieldList(arrayOfObjects[1]!, named) } };
  const objectWith = /^object with (.*)$/.exec(phrase);
  if (objectWith) return { kind: "fields", fields: parseFieldList(objectWith[1]!, named) };
  const arrayOfNamed = /^arrays? of (?:the )?(.+?) objects?(?: above| \(below\))?$/.exec(phrase);
  if (arrayOfNamed) {
    const shape = named.get(arrayOfNamed[1]!);
    if (!shape) throw new Error(`unknown object "${arrayOfNamed[1]}" in "${phrase}"`);
    return { kind: "array", items: shape };
  }
  throw new Error(`cannot read the type "${phrase}"`);
}

/**
 * Parses a list of backticked field names, each group followed by its type: "`name` string, `value`
 * string", "`a`, `b` (string) and `c` (boolean)", "`name` (string) and the object-valued fields `x`, `y`".
 */
function parseFieldList(text: string, named: Map<string, Expected>): Record<string, Expected> {
  const fields: Record<string, Expected> = {};
  let pending: string[] = [];
  let objectValued = false;
  const assign = (type: Expected) => {
    for (const name of pending) fields[name] = type;
    pending = [];
  };
  const tokens =
    /`([^`]+)`|\(([^)]+)\)|\b(object-valued)\b|\b(string\[\]|object\[\]|string|integer|number|boolean|object)(?![\w-])/g;
  for (const match of text.matchAll(tokens)) {
    if (match[1]) pending.push(match[1]);
    else if (match[2]) assign(parseTypePhrase(match[2], named));
    else if (match[3]) objectValued = true;
    else if (match[4]) assign(parseTypePhrase(match[4], named));
  }
  if (pending.length > 0) {
    if (!objectValued) throw new Error(`fields without a type in "${text}"`);
    assign({ kind: "object" });
  }
  return fields;
}

/** The object shapes the ResourceSpec section names in prose: "volume mount", "container", .... */
function namedShapes(sections: MarkdownSection[]): Map<string, Expected> {
  const named = new Map<string, Expected>();
  const section = sectionByHeading(sections, "ResourceSpec");
  for (const row of onlyTable(section).rows) {
    const group = row.Group!;
    if (!/^[a-z_]+$/.test(group)) continue;
    const fields = row["Fields (type)"]!;
    if (!/^arrays? of objects with/.test(fields)) continue;
    const type = parseTypePhrase(fields, named);
    if (type.kind === "array") named.set(group.replace(/_/g, " ").replace(/s$/, ""), type.items);
  }
  const container = /Container object:\s*(.*)/.exec(section.text);
  if (!container) throw new Error("the ResourceSpec section has no Container object paragraph");
  named.set("container", { kind: "fields", fields: parseFieldList(container[1]!.replace(/\.\s*$/, ""), named) });
  return named;
}

/** Every field of the ResourceSpec table: group rows ("a, b (integer); c (number)") and field rows. */
function resourceSpecFields(table: MarkdownTable, named: Map<string, Expected>): Record<string, Expected> {
  const fields: Record<string, Expected> = {};
  for (const row of table.rows) {
    const group = row.Group!;
    const cell = row["Fields (type)"]!;
    if (/^[a-z_]+(?:,\s*[a-z_]+)*$/.test(group)) {
      // The row names the fields itself: "init_containers, sidecars" | "arrays of container objects (below)".
      const type = parseTypePhrase(cell, named);
      for (const name of group.split(",")) fields[name.trim()] = type;
      continue;
    }
    const matches = [...cell.matchAll(/((?:[a-z_]+,\s*)*[a-z_]+)\s*\(([^)]+)\)/g)];
    if (matches.length === 0) throw new Error(`cannot read the ResourceSpec group "${group}"`);
    for (const match of matches) {
      const type = parseTypePhrase(match[2]!, named);
      for (const name of match[1]!.split(",")) fields[name.trim()] = type;
    }
  }
  return fields;
}

/** The only table of a section. */
function onlyTable(section: MarkdownSection): MarkdownTable {
  if (section.tables.length !== 1)
    throw new Error(`section "${section.heading}" has ${section.tables.length} tables, expected 1`);
  return section.tables[0]!;
}

/** A Default cell as a JSON value: `false`, `20`, `S256`. */
function parseDefault(cell: string): unknown {
  const text = cell.trim();
  if (text === "") return undefined;
  if (text === "true" || text === "false") return text === "true";
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Splits nullability off a property: `anyOf: [X, {type: null}]`, `type: [X, "null"]`, and unwraps `allOf: [X]`. */
function unwrap(schema: Json): { nullable: boolean; core: Json } {
  let core: Json = schema;
  let nullable = false;
  if (Array.isArray(core.anyOf)) {
    const members = core.anyOf as Json[];
    const nonNull = members.filter((member) => member.type !== "null");
    nullable = nonNull.length !== members.length;
    if (nonNull.length === 1) {
      const { anyOf: _anyOf, ...rest } = core;
      core = { ...rest, ...nonNull[0] };
    }
  }
  if (Array.isArray(core.type) && (core.type as string[]).includes("null")) {
    nullable = true;
    const types = (core.type as string[]).filter((type) => type !== "null");
    core = { ...core, type: types.length === 1 ? types[0] : types };
  }
  if (Array.isArray(core.allOf) && core.allOf.length === 1) {
    const { allOf, ...rest } = core;
    core = { ...rest, ...(allOf as Json[])[0] };
  }
  return { nullable, core };
}

/** A parameter as the checks read it. */
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  explode?: boolean;
  schema: Json;
}

/**
 * The parameter a `#/components/parameters/X` reference names. The checks look at references on purpose
 * (which component a field names is part of what they check), so they follow them themselves.
 */
function resolveParameter(document: OpenAPIObject, parameter: Json): Parameter {
  if (typeof parameter.$ref !== "string") return parameter as Parameter;
  const resolved = document.components?.parameters?.[parameter.$ref.replace("#/components/parameters/", "")];
  if (!resolved) throw new Error(`unresolved parameter ${parameter.$ref}`);
  return resolved as Parameter;
}

/** Follows `$ref`s to component schemas. */
function deref(schemas: Record<string, Json>, schema: Json): Json {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 10; depth++) {
    const target = schemas[refName(current)!];
    if (!target) return {};
    current = unwrap(target).core;
  }
  return current;
}

function refName(schema: Json): string | undefined {
  return typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;
}

function describe(schema: Json): string {
  if (schema.$ref) return refName(schema)!;
  if (schema.enum) return `enum ${(schema.enum as unknown[]).join("|")}`;
  return [schema.type ?? "untyped", schema.format].filter(Boolean).join(":");
}

/**
 * The fields missing from the model and those beyond the rows. With `owner` (the walk and the schema), a field
 * beyond the rows that an exception of aspect `field` names is allowed, and the finding says where to add one.
 */
function compareFieldSets(
  stated: string[],
  actual: string[],
  owner?: { walk: SpecWalk; schema: string; table: string },
): string[] {
  const beyond = actual.filter(
    (name) => !stated.includes(name) && !owner?.walk.exceptionFor(`${owner.schema}.${name}`, "field"),
  );
  if (owner) owner.walk.result.fieldsWithoutException.push(...beyond.map((name) => `${owner.schema}.${name}`));
  return [
    ...stated.filter((name) => !actual.includes(name)).map((name) => `field ${name} is missing`),
    ...beyond.map((name) =>
      owner
        ? `field ${name} is not in the interface spec (table "${owner.table}" of spec/interface-tables.json). A field the profile adds needs its decision row in spec/decisions.md and this entry at the end of \`exceptions\` in generator/interface-spec-tables.ts (D-NN its row):\n${fieldExceptionEntry(`${owner.schema}.${name}`)}`
        : `field ${name} is not in the interface spec`,
    ),
  ];
}

function sameSet<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}
