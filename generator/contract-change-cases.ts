/** The contract changes the breaking-change gate is tested on (D-82): each a `given` edit of the committed document and the changes it `want`s, and the classification of one. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { operationList } from "../contract/operations.js";
import { type ContractChange, classifyChanges } from "./contract-classify.js";
import { dereference, type Json } from "./contract-dereference.js";

const root = resolve(import.meta.dirname, "..");
export const baseText = readFileSync(join(root, "generated", "openapi.json"), "utf8");
const base = await dereference(baseText);

export const schemas = (doc: Json) => doc.components.schemas as Json;
const parameters = (doc: Json) => doc.components.parameters as Json;
export const createDeployment = (doc: Json) => doc.paths["/v2/deployments"].post as Json;
const listDeployments = (doc: Json) => doc.paths["/v2/deployments"].get as Json;
const nullable = (schema: Json) => ({ anyOf: [schema, { type: "null" }] });
/** Every operation answers problems: the operation table's ids. */
const problemOperations = operationList.map(({ id }) => id);

/** `given` mutates a copy of the committed document (with its $refs); `want` lists `<rule> <location>` of every change found. */
interface Case {
  name: string;
  given: (doc: Json) => void;
  want: string[];
}

export const cases: Case[] = [
  // Request constraints, tightened and loosened.
  {
    name: "DeploymentName maxLength 63 → 10",
    given: (doc) => (schemas(doc).DeploymentName.maxLength = 10),
    want: ["request-constraint-tightened createDeployment request body.name"],
  },
  {
    name: "DeploymentName maxLength 63 → 100",
    given: (doc) => (schemas(doc).DeploymentName.maxLength = 100),
    want: ["request-constraint-loosened createDeployment request body.name"],
  },
  {
    name: "DeploymentName minLength 1 → 3",
    given: (doc) => (schemas(doc).DeploymentName.minLength = 3),
    want: ["request-constraint-tightened createDeployment request body.name"],
  },
  {
    name: "DeploymentName pattern changed",
    given: (doc) => (schemas(doc).DeploymentName.pattern = "^[a-z][a-z0-9-]*$"),
    want: ["request-constraint-tightened createDeployment request body.name"],
  },
  {
    name: "DeploymentName pattern removed",
    given: (doc) => delete schemas(doc).DeploymentName.pattern,
    want: ["request-constraint-loosened createDeployment request body.name"],
  },
  // A nullable field's constraint stands inside its non-null branch (D-130): the gate reads it there.
  {
    name: "repo_url maxLength inside its nullable branch 2048 → 100",
    given: (doc) => (schemas(doc).SourceConfig.properties.repo_url.anyOf[0].maxLength = 100),
    want: [
      "request-constraint-tightened createDeployment request body.source_config.repo_url",
      "response-constraint-changed createDeployment response body.source_config.repo_url",
      "response-constraint-changed listDeployments response body.resources[].source_config.repo_url",
    ],
  },
  {
    name: "ResourceSpec cpu maximum inside its nullable branch removed",
    given: (doc) => delete schemas(doc).ResourceSpec.properties.cpu.anyOf[0].maximum,
    want: [
      "request-constraint-loosened createDeployment request body.source_config.resource_spec.cpu",
      "response-constraint-changed createDeployment response body.source_config.resource_spec.cpu",
      "response-constraint-changed listDeployments response body.resources[].source_config.resource_spec.cpu",
    ],
  },
  {
    name: "limit maximum 100 → 50",
    given: (doc) => (parameters(doc)["DeploymentListQuery.limit"].schema.maximum = 50),
    want: ["request-constraint-tightened listDeployments request query.limit"],
  },
  {
    name: "limit minimum 1 → 0",
    given: (doc) => (parameters(doc)["DeploymentListQuery.limit"].schema.minimum = 0),
    want: ["request-constraint-loosened listDeployments request query.limit"],
  },
  {
    name: "offset exclusiveMaximum added",
    given: (doc) => (parameters(doc)["DeploymentListQuery.offset"].schema.exclusiveMaximum = 10000),
    want: ["request-constraint-tightened listDeployments request query.offset"],
  },
  {
    name: "name_contains format added",
    given: (doc) => (parameters(doc)["DeploymentListQuery.name_contains"].schema.format = "uuid"),
    want: ["request-constraint-tightened listDeployments request query.name_contains"],
  },
  {
    name: "tag_value_ids maxItems 100 → 10",
    given: (doc) => (parameters(doc)["DeploymentListQuery.tag_value_ids"].schema.maxItems = 10),
    want: ["request-constraint-tightened listDeployments request query.tag_value_ids"],
  },
  {
    name: "secrets minItems 1 added",
    given: (doc) => (schemas(doc).DeploymentCreate.properties.secrets.minItems = 1),
    want: ["request-constraint-tightened createDeployment request body.secrets"],
  },
  {
    name: "client_secret no longer nullable",
    given: (doc) => {
      // The non-null branch keeps its constraints (D-130); only the null branch goes.
      const field = schemas(doc).OAuthProviderCreate.properties.client_secret;
      field.anyOf = field.anyOf.filter((branch: Json) => branch.type !== "null");
    },
    want: ["request-constraint-tightened createOAuthProvider request body.client_secret"],
  },
  {
    name: "provider name now nullable (type array) in the request",
    given: (doc) => (schemas(doc).OAuthProviderCreate.properties.name.type = ["string", "null"]),
    want: ["request-constraint-loosened createOAuthProvider request body.name"],
  },
  // Enums: the side decides.
  {
    name: "value added to the response-only ProblemType",
    given: (doc) => schemas(doc).ProblemType.enum.push("urn:deployment-service:problem:gone"),
    want: problemOperations.map((id) => `response-enum-widened ${id} response body.type`),
  },
  {
    name: "value added to the request-only DeploymentType",
    given: (doc) => schemas(doc).DeploymentType.enum.push("enterprise"),
    want: ["request-enum-widened listDeployments request query.deployment_type"],
  },
  {
    name: "value added to DeploymentStatus (both sides)",
    given: (doc) => schemas(doc).DeploymentStatus.enum.push("PAUSED"),
    want: [
      "request-enum-widened listDeployments request query.status[]",
      "response-enum-widened createDeployment response body.status",
      "response-enum-widened listDeployments response body.resources[].status",
    ],
  },
  {
    name: "value removed from DeploymentStatus (both sides)",
    given: (doc) =>
      (schemas(doc).DeploymentStatus.enum = schemas(doc).DeploymentStatus.enum.filter(
        (value: string) => value !== "UNUSED",
      )),
    want: [
      "request-constraint-tightened listDeployments request query.status[]",
      "response-enum-value-removed createDeployment response body.status",
      "response-enum-value-removed listDeployments response body.resources[].status",
    ],
  },
  // Request fields and parameters.
  {
    name: "optional request field added",
    given: (doc) => (schemas(doc).DeploymentCreate.properties.region = { type: "string" }),
    want: ["request-optional-added createDeployment request body.region"],
  },
  {
    name: "required request field added",
    given: (doc) => (
      (schemas(doc).DeploymentCreate.properties.region = { type: "string" }),
      schemas(doc).DeploymentCreate.required.push("region")
    ),
    want: ["request-required-added createDeployment request body.region"],
  },
  {
    name: "request field became required",
    given: (doc) => schemas(doc).DeploymentCreate.required.push("secret_references"),
    want: ["request-became-required createDeployment request body.secret_references"],
  },
  {
    name: "request field became optional",
    given: (doc) =>
      (schemas(doc).OAuthProviderCreate.required = schemas(doc).OAuthProviderCreate.required.filter(
        (field: string) => field !== "token_url",
      )),
    want: ["request-became-optional createOAuthProvider request body.token_url"],
  },
  {
    name: "request field removed",
    given: (doc) => delete schemas(doc).OAuthProviderCreate.properties.client_secret,
    want: ["request-field-removed createOAuthProvider request body.client_secret"],
  },
  {
    name: "optional parameter added",
    given: (doc) =>
      listDeployments(doc).parameters.push({ name: "sort", in: "query", required: false, schema: { type: "string" } }),
    want: ["request-optional-added listDeployments request query.sort"],
  },
  {
    name: "required parameter added",
    given: (doc) =>
      listDeployments(doc).parameters.push({
        name: "project",
        in: "query",
        required: true,
        schema: { type: "string" },
      }),
    want: ["request-required-added listDeployments request query.project"],
  },
  {
    name: "parameter removed",
    given: (doc) =>
      (listDeployments(doc).parameters = listDeployments(doc).parameters.filter(
        (parameter: Json) => !String(parameter.$ref).endsWith(".image_version"),
      )),
    want: ["parameter-removed listDeployments request query.image_version"],
  },
  {
    name: "parameter became required",
    given: (doc) => (parameters(doc)["DeploymentListQuery.limit"].required = true),
    want: ["request-became-required listDeployments request query.limit"],
  },
  {
    name: "request parameter type changed",
    given: (doc) => (parameters(doc)["DeploymentListQuery.limit"].schema = { type: "string" }),
    want: ["type-changed listDeployments request query.limit"],
  },
  // Response fields.
  {
    name: "response field removed",
    given: (doc) => delete schemas(doc).Deployment.properties.image_version,
    want: [
      "response-field-removed createDeployment response body.image_version",
      "response-field-removed listDeployments response body.resources[].image_version",
    ],
  },
  {
    name: "response field added",
    given: (doc) => (schemas(doc).Deployment.properties.region = { type: "string" }),
    want: [
      "response-field-added createDeployment response body.region",
      "response-field-added listDeployments response body.resources[].region",
    ],
  },
  {
    name: "response field made optional",
    given: (doc) =>
      (schemas(doc).Deployment.required = schemas(doc).Deployment.required.filter(
        (field: string) => field !== "status",
      )),
    want: [
      "response-became-optional createDeployment response body.status",
      "response-became-optional listDeployments response body.resources[].status",
    ],
  },
  {
    name: "response field became required",
    given: (doc) => schemas(doc).OAuthProvider.required.push("provider_type"),
    want: [
      "response-became-required createOAuthProvider response body.provider_type",
      "response-became-required listOAuthProviders response body[].provider_type",
    ],
  },
  {
    name: "response field made nullable (anyOf)",
    given: (doc) => (schemas(doc).Deployment.properties.created_at = nullable({ type: "string", format: "date-time" })),
    want: [
      "response-became-nullable createDeployment response body.created_at",
      "response-became-nullable listDeployments response body.resources[].created_at",
    ],
  },
  {
    name: "response field made nullable (type array)",
    given: (doc) => (schemas(doc).OAuthProvider.properties.name.type = ["string", "null"]),
    want: [
      "response-became-nullable createOAuthProvider response body.name",
      "response-became-nullable listOAuthProviders response body[].name",
    ],
  },
  {
    name: "response field no longer nullable",
    given: (doc) => (schemas(doc).Deployment.properties.image_version = { type: "string" }),
    want: [
      "response-became-non-nullable createDeployment response body.image_version",
      "response-became-non-nullable listDeployments response body.resources[].image_version",
    ],
  },
  {
    name: "response field type changed",
    given: (doc) => (schemas(doc).CodehostRepository.properties.id = { type: "string" }),
    want: [
      "type-changed listCodehostRepositories response body[].id",
      "type-changed listManagedCodehostRepositories response body[].id",
    ],
  },
  {
    name: "response constraint changed",
    given: (doc) => delete schemas(doc).DeploymentList.properties.offset.minimum,
    want: ["response-constraint-changed listDeployments response body.offset"],
  },
  // Nested objects and arrays of containers, judged on both sides.
  {
    name: "SourceConfig.resource_spec.cpu minimum 0 → 1",
    given: (doc) => (schemas(doc).ResourceSpec.properties.cpu.minimum = 1),
    want: [
      "request-constraint-tightened createDeployment request body.source_config.resource_spec.cpu",
      "response-constraint-changed createDeployment response body.source_config.resource_spec.cpu",
      "response-constraint-changed listDeployments response body.resources[].source_config.resource_spec.cpu",
    ],
  },
  {
    name: "Container.image maxLength added (sidecars and init containers)",
    given: (doc) => (schemas(doc).Container.properties.image.maxLength = 100),
    want: ["init_containers", "sidecars"].flatMap((list) => [
      `request-constraint-tightened createDeployment request body.source_config.resource_spec.${list}[].image`,
      `response-constraint-changed createDeployment response body.source_config.resource_spec.${list}[].image`,
      `response-constraint-changed listDeployments response body.resources[].source_config.resource_spec.${list}[].image`,
    ]),
  },
  {
    name: "labels values maxLength added (a map)",
    given: (doc) => (schemas(doc).ResourceSpec.properties.labels.anyOf[0].unevaluatedProperties.maxLength = 63),
    want: [
      "request-constraint-tightened createDeployment request body.source_config.resource_spec.labels{}",
      "response-constraint-changed createDeployment response body.source_config.resource_spec.labels{}",
      "response-constraint-changed listDeployments response body.resources[].source_config.resource_spec.labels{}",
    ],
  },
  // Operations and statuses.
  {
    name: "operation removed",
    given: (doc) => delete doc.paths["/v2/auth/providers"].get,
    want: ["operation-removed listOAuthProviders"],
  },
  {
    name: "operation added",
    given: (doc) =>
      (doc.paths["/v2/auth/providers/{id}"] = {
        get: { ...doc.paths["/v2/auth/providers"].get, operationId: "getOAuthProvider" },
      }),
    want: ["operation-added getOAuthProvider"],
  },
  {
    name: "operation moved",
    given: (doc) => (
      (doc.paths["/v1/repos/{integration_id}"] = doc.paths["/v1/integrations/codehost/{integration_id}/repos"]),
      delete doc.paths["/v1/integrations/codehost/{integration_id}/repos"]
    ),
    want: ["operation-moved listCodehostRepositories"],
  },
  {
    name: "success status changed",
    given: (doc) => {
      const responses = createDeployment(doc).responses;
      responses["200"] = responses["201"];
      delete responses["201"];
    },
    want: ["success-status-changed createDeployment response status"],
  },
  {
    name: "error status added",
    given: (doc) => (createDeployment(doc).responses["404"] = createDeployment(doc).responses["409"]),
    want: ["error-status-added createDeployment response status 404"],
  },
  {
    name: "error status removed",
    given: (doc) => delete createDeployment(doc).responses["409"],
    want: ["error-status-removed createDeployment response status 409"],
  },
  { name: "no change", given: () => {}, want: [] },
];

/** The changes from the committed document to one with `given` applied. */
export async function classify(given: (doc: Json) => void): Promise<{ text: string; changes: ContractChange[] }> {
  const doc = JSON.parse(baseText) as Json;
  given(doc);
  const text = JSON.stringify(doc);
  return { text, changes: classifyChanges(base, await dereference(text)) };
}
