/**
 * The positive checks' requests completed from the contract (D-490): the hand-written generators of arbitraries.ts,
 * each member they never send added from its schema. A MUST check adds only fields the interface spec names (D-491),
 * a SHOULD check every field the contract declares; no field a deployment's source forbids (D-48) is added.
 */
import fc from "fast-check";
import { operation, type SchemaObject } from "../../contract/index.js";
import type { Hosting } from "../cli/run-config.js";
import type { Level } from "../runner/check.js";
import { deploymentBodies, providerBodies } from "./arbitraries.js";
import { forbiddenFor } from "./body-source-rules.js";
import { type Completed, completed } from "./contract-completion.js";
import type { Source } from "./data.js";
import { isInterfaceField } from "./interface-fields.js";

type Json = Record<string, unknown>;

/** Whether the field's level lets a check of `level` add it: a MUST check only the interface spec's fields. */
const atLevel = (level: Level, operationId: string, path: string) =>
  level === "SHOULD" || isInterfaceField(operationId, path);

/**
 * Members no completion adds: the name the check gives each deployment, and the resource spec, sent whole from the
 * same schema by POS-007 to POS-013 (its fields hold relations a draw per field would break, D-134).
 */
const deploymentOwnFields = (path: string) => path === "name" || path.startsWith("source_config.resource_spec");

/** Generated deployment bodies (without `name`), completed with the fields of `level` their source allows. */
export function completedDeploymentBodies(hosting: Hosting, level: Level): fc.Arbitrary<Completed> {
  return completed(deploymentBodies(hosting), {
    schema: operation("createDeployment").requestBody?.schema as SchemaObject,
    may: (path, body) =>
      !deploymentOwnFields(path) &&
      !forbiddenFor(path, body.source as Source) &&
      atLevel(level, "createDeployment", path),
    groupOf: (body) => String(body.source),
    absentOnly: level === "MUST",
  });
}

/**
 * Generated OAuth provider bodies (without `provider_id`, which the check makes fresh), completed with the fields of
 * `level`. At MUST only fields the generator never writes: one it sends as null only (provider_type) holds values
 * a decision names (D-57), which the SHOULD check sends.
 */
export function completedProviderBodies(
  methods: readonly string[],
  vendors: readonly string[],
  level: Level,
): fc.Arbitrary<Completed> {
  return completed(providerBodies(methods, vendors), {
    schema: operation("createOAuthProvider").requestBody?.schema as SchemaObject,
    may: (path) => path !== "provider_id" && atLevel(level, "createOAuthProvider", path),
    absentOnly: level === "MUST",
  });
}

/** The query parameters of List deployments as the members of one object schema. */
function querySchema(): SchemaObject {
  const parameters = operation("listDeployments").parameters.filter((p) => p.in === "query");
  return { type: "object", properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])) };
}

/**
 * Generated list queries: other filters drawn from `filters`, a page (limit 1 to 100, offset, name_contains) each
 * present or not, completed with the parameters of `level` they never send. At MUST not `status`, whose values the
 * interface spec does not state (D-07): POS-006 sends it at SHOULD.
 */
export function completedQueries(filters: fc.Arbitrary<Json>, level: Level): fc.Arbitrary<Completed> {
  const queries = fc
    .record({
      filters,
      limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      offset: fc.option(fc.nat(1000), { nil: undefined }),
      name_contains: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    })
    .map(({ filters: chosen, ...page }): Json => ({ ...chosen, ...page }));
  return completed(queries, {
    schema: querySchema(),
    may: (path) => level === "SHOULD" || (path !== "status" && isInterfaceField("listDeployments", `query.${path}`)),
    absentOnly: level === "MUST",
  });
}
